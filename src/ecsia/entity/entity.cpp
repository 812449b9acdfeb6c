#include "ecsia/entity/entity.hpp"

#include <cstdio>
#include <string>

#include "ecsia/base/error.hpp"

namespace ecsia {

HandleLayout::HandleLayout(unsigned index_bits) : index_bits_(index_bits), index_mask_(0) {
    if (index_bits < 1 || index_bits > 31) {
        throw Error(ErrorCode::BadDefinition, "handle layout needs 1..31 index bits, got " + std::to_string(index_bits));
    }
    index_mask_ = (1u << index_bits) - 1u;
}

std::string describe(Entity entity, const HandleLayout& layout) {
    if (entity.is_null()) return "the null entity";
    char text[96];
    std::snprintf(text, sizeof text, "entity 0x%08x (index %u, generation %u)", entity.bits, layout.index(entity),
                  layout.generation(entity));
    return text;
}

}  // namespace ecsia
