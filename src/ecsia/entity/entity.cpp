#include "ecsia/entity/entity.hpp"

#include <string>

#include "ecsia/base/error.hpp"

namespace ecsia {

HandleLayout::HandleLayout(unsigned index_bits) : index_bits_(index_bits), index_mask_(0) {
    if (index_bits < 1 || index_bits > 31) {
        throw Error(ErrorCode::BadDefinition, "handle layout needs 1..31 index bits, got " + std::to_string(index_bits));
    }
    index_mask_ = (1u << index_bits) - 1u;
}

}  // namespace ecsia
