#pragma once
// ExtractBuffer: one capture of a FrameExtract (frame_extract.hpp), what a reader of an extract
// sees (Scheduler::acquire_extract). Its bytes stay put and unchanged while the reader holds it.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ecsia/entity/entity.hpp"

namespace ecsia {

class FrameExtract;

// One capture: count() rows, their entities and, per extracted component (in the order given to
// FrameExtract), a packed array of count() elements of that component's size.
class ExtractBuffer {
public:
    std::uint64_t frame() const noexcept { return frame_; }  // the frame count when captured
    std::uint32_t count() const noexcept { return count_; }
    const Entity* entities() const noexcept { return reinterpret_cast<const Entity*>(entities_.bytes.get()); }
    // Element i of component `slot` is at column(slot) + i * element size.
    const std::byte* column(std::size_t slot) const noexcept { return columns_[slot].bytes.get(); }

private:
    friend class FrameExtract;
    // Grows without keeping or zeroing the old bytes: every capture overwrites all of them.
    struct Block {
        std::unique_ptr<std::byte[]> bytes;
        std::size_t capacity = 0;  // bytes allocated
        std::byte* reserve(std::size_t size);
    };
    std::uint64_t frame_ = 0;
    std::uint32_t count_ = 0;
    Block entities_;
    std::vector<Block> columns_;
};

}  // namespace ecsia
