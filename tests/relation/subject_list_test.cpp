// SubjectList against a std::vector model: random inserts (with room made first, as the store
// does) and erases at every position, runs of erases from the front and the back (where the gap
// before the first element opens and closes), and bulk appends through compacted().

#include <catch2/catch.hpp>

#include <vector>

#include "ecsia/relation/subject_list.hpp"
#include "support/rng.hpp"

using namespace ecsia;

namespace {

std::vector<Entity> items(const SubjectList& list) { return {list.view().begin(), list.view().end()}; }

}  // namespace

TEST_CASE("SubjectList keeps the order a vector would, with its gap open or closed", "[relation][property]") {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        test::Rng rng(seed);
        SubjectList list;
        std::vector<Entity> model;
        std::uint32_t next = 0;
        for (int step = 0; step < 400; ++step) {
            const auto op = rng.below(10);
            if (op < 4 || model.empty()) {
                const auto at = rng.below(static_cast<std::uint32_t>(model.size() + 1));
                const Entity e{next++};
                list.make_room_for(1);
                list.insert(at, e);
                model.insert(model.begin() + at, e);
            } else if (op < 6) {
                const auto at = rng.below(static_cast<std::uint32_t>(model.size()));
                list.erase(at);
                model.erase(model.begin() + at);
            } else if (op < 8) {  // a run from one end: the front opens the gap, the back does not
                const bool front = op == 6;
                for (auto n = rng.below(static_cast<std::uint32_t>(model.size()) + 1); n > 0; --n) {
                    const std::size_t at = front ? 0 : model.size() - 1;
                    list.erase(at);
                    model.erase(model.begin() + static_cast<std::ptrdiff_t>(at));
                }
            } else {  // the store's bulk append
                const auto more = rng.below(20);
                list.make_room_for(more);
                std::vector<Entity>& all = list.compacted();
                for (std::uint32_t k = 0; k < more; ++k) {
                    all.push_back(Entity{next});
                    model.push_back(Entity{next++});
                }
            }
            INFO("seed " << seed << " step " << step);
            REQUIRE(list.size() == model.size());
            REQUIRE(items(list) == model);
            if (!model.empty()) REQUIRE(list.back() == model.back());
        }
    }
}
