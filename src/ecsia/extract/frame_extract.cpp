#include "ecsia/extract/frame_extract.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "ecsia/base/error.hpp"

namespace ecsia {

std::byte* ExtractBuffer::Block::reserve(std::size_t size) {
    if (size > capacity) {
        // Doubling: a world that grows by a few rows a frame does not reallocate every frame.
        const std::size_t grown = std::max(size, capacity * 2);
        bytes.reset(new std::byte[grown]);
        capacity = grown;
    }
    return bytes.get();
}

namespace {

QueryDesc with_components(QueryDesc query, const std::vector<ComponentId>& components) {
    for (ComponentId id : components) {
        if (std::find(query.with.begin(), query.with.end(), id) == query.with.end()) query.with.push_back(id);
    }
    return query;
}

}  // namespace

FrameExtract::FrameExtract(const World& world, std::vector<ComponentId> components, QueryDesc query)
    : cache_(with_components(query, components)), components_(std::move(components)) {
    const ComponentRegistry& registry = world.components();
    if (components_.empty()) throw Error(ErrorCode::BadValue, "components must name at least one component to copy");
    if (!query.optional.empty() || query.has_row_filter()) {
        throw Error(ErrorCode::BadValue, "an extract selects rows by with/without terms only (it copies state, not changes)");
    }
    for (std::size_t i = 0; i < components_.size(); ++i) {
        const ComponentDesc& desc = registry.desc(components_[i]);  // UnknownComponent for a bad id
        if (desc.is_tag()) throw Error(ErrorCode::BadValue, "'" + desc.name + "' is a tag: it has no values to copy (select rows by it with `with`)");
        if (std::find(components_.begin(), components_.begin() + static_cast<std::ptrdiff_t>(i), components_[i]) !=
            components_.begin() + static_cast<std::ptrdiff_t>(i)) {
            throw Error(ErrorCode::BadValue, "'" + desc.name + "' is listed twice in components");
        }
        sizes_.push_back(desc.size);
    }
    const auto lists = [](const std::vector<ComponentId>& ids, ComponentId id) {
        return std::find(ids.begin(), ids.end(), id) != ids.end();
    };
    // A name given twice in with or without is a slip (as in components), not a stronger term.
    const auto refuse_repeats = [&](const std::vector<ComponentId>& ids, const char* list) {
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const ComponentDesc& desc = registry.desc(ids[i]);  // UnknownComponent for a bad id
            if (std::find(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(i), ids[i]) != ids.begin() + static_cast<std::ptrdiff_t>(i)) {
                throw Error(ErrorCode::BadValue, "'" + desc.name + "' is listed twice in " + list);
            }
        }
    };
    refuse_repeats(query.with, "with");
    refuse_repeats(query.without, "without");
    for (ComponentId id : query.without) {
        const ComponentDesc& desc = registry.desc(id);
        if (lists(components_, id)) throw Error(ErrorCode::BadValue, "'" + desc.name + "' is in without and also in components");
        if (lists(query.with, id)) throw Error(ErrorCode::BadValue, "'" + desc.name + "' is in without and also in with");
    }
    for (ExtractBuffer& buffer : buffers_) buffer.columns_.resize(components_.size());
    targets_.resize(components_.size());
}

void FrameExtract::capture(const World& world, std::uint64_t frame) {
    const int target = held_ == 0 ? 1 : 0;  // never the held buffer; the unread one may be overwritten
    ExtractBuffer& out = buffers_[target];
    const TableGraph& graph = world.tables();
    const std::vector<TableIndex>& matched = cache_.matched(graph);
    std::size_t rows = 0;
    for (TableIndex index : matched) rows += graph.table(index).size();
    std::byte* entities = out.entities_.reserve(std::max<std::size_t>(rows, 1) * sizeof(Entity));
    for (std::size_t c = 0; c < components_.size(); ++c) {
        targets_[c] = out.columns_[c].reserve(std::max<std::size_t>(rows, 1) * sizes_[c]);
    }
    std::size_t row = 0;
    for (TableIndex index : matched) {
        const Table& table = graph.table(index);
        const std::size_t n = table.size();
        if (n == 0) continue;
        std::memcpy(entities + row * sizeof(Entity), table.entities(), n * sizeof(Entity));
        for (std::size_t c = 0; c < components_.size(); ++c) {
            const std::size_t size = sizes_[c];
            std::memcpy(targets_[c] + row * size, table.column(components_[c])->data(), n * size);
        }
        row += n;
    }
    out.count_ = static_cast<std::uint32_t>(rows);
    out.frame_ = frame;
    latest_ = target;
}

const ExtractBuffer& FrameExtract::acquire() noexcept {
    held_ = latest_;
    return buffers_[held_];
}

}  // namespace ecsia
