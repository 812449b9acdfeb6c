#pragma once
// The pair data the relation tests give their "Likes"-style relations: one u32 field "since".

#include <cstdint>

namespace test {

struct Since {
    std::uint32_t since;
};

}  // namespace test
