// TargetList against a std::vector model: random inserts and erases at every position, across
// the move from the inline target to the heap and back down to one, with copies and moves taken
// along the way (the store's vector of lists moves them when it grows).

#include <catch2/catch.hpp>

#include <vector>

#include "ecsia/relation/target_list.hpp"
#include "support/rng.hpp"

using namespace ecsia;

namespace {

std::vector<Entity> items(const TargetList& list) { return {list.begin(), list.end()}; }

}  // namespace

TEST_CASE("TargetList keeps the order a vector would, inline and on the heap", "[relation][property]") {
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        test::Rng rng(seed);
        TargetList list;
        std::vector<Entity> model;
        std::uint32_t next = 0;
        for (int step = 0; step < 300; ++step) {
            const auto op = rng.below(8);
            if (op < 4 || model.empty()) {
                const auto at = rng.below(static_cast<std::uint32_t>(model.size() + 1));
                const Entity e{next++};
                list.make_room_for_one();
                list.insert(at, e);
                model.insert(model.begin() + at, e);
            } else if (op < 7) {
                const auto at = rng.below(static_cast<std::uint32_t>(model.size()));
                list.erase(at);
                model.erase(model.begin() + at);
            } else if (rng.below(2) == 0) {
                TargetList copy(list);
                CHECK(items(copy) == model);
                TargetList assigned;
                assigned = copy;
                list = std::move(assigned);
                CHECK(assigned.empty());  // a moved-from list is empty and usable
                assigned.make_room_for_one();
                assigned.insert(0, Entity{7});
                CHECK(assigned.size() == 1);
            } else {
                TargetList moved(std::move(list));
                CHECK(list.empty());
                list = std::move(moved);
            }
            INFO("seed " << seed << " step " << step);
            REQUIRE(list.size() == model.size());
            REQUIRE(items(list) == model);
            if (!model.empty()) REQUIRE(list.front() == model.front());
            const std::span<const Entity> view = list;
            REQUIRE(view.size() == model.size());
        }
    }
}
