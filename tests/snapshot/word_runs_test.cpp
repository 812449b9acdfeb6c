// count_word_runs (word_runs.hpp), the vector count behind snapshot format 7's tick runs and the
// writer's give-up on shuffled rows: against a plain loop on random arrays of equal and of
// consecutive words, from any start, with limits below, at and above the answer.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ecsia/snapshot/word_runs.hpp"
#include "support/rng.hpp"

using namespace ecsia;

namespace {

// Runs of random lengths (some past a vector step, some past 1,024 words), each `increment` a word.
std::vector<std::uint32_t> random_words(test::Rng& rng, std::uint32_t increment) {
    std::vector<std::uint32_t> words;
    const std::uint32_t runs = 1 + rng.below(40);
    for (std::uint32_t r = 0; r < runs; ++r) {
        const std::uint32_t length = rng.chance(20) ? 1 + rng.below(2500) : 1 + rng.below(20);
        // Sometimes a run that happens to continue the one before it: one run, not two.
        const std::uint32_t first = rng.chance(20) && !words.empty() ? words.back() + increment : static_cast<std::uint32_t>(rng.below(4));
        for (std::uint32_t i = 0; i < length; ++i) words.push_back(first + i * increment);
    }
    return words;
}

std::uint32_t model_runs(const std::vector<std::uint32_t>& words, std::uint32_t from, std::uint32_t increment) {
    std::uint32_t runs = 1;
    for (std::size_t i = from + 1; i < words.size(); ++i) runs += words[i] != words[i - 1] + increment ? 1u : 0u;
    return runs;
}

}  // namespace

TEST_CASE("count_word_runs counts runs of equal and of consecutive words as a plain loop does, and stops past its limit",
          "[snapshot]") {
    test::Rng rng(7);
    for (int trial = 0; trial < 400; ++trial) {
        const std::uint32_t increment = trial % 2;
        const std::vector<std::uint32_t> words = random_words(rng, increment);
        const auto count = static_cast<std::uint32_t>(words.size());
        const std::uint32_t from = rng.chance(50) ? 0 : rng.below(count);
        const std::uint32_t expected = model_runs(words, from, increment);
        INFO("trial " << trial << ", " << count << " words from " << from << ", " << expected << " runs");
        for (const std::uint32_t limit : {expected + 5, expected, expected - 1, expected / 2, 1u}) {
            if (limit == 0) continue;
            const std::uint32_t got = count_word_runs(words.data(), from, count, limit, increment);
            CHECK(got == (expected <= limit ? expected : limit + 1));
        }
    }
}

TEST_CASE("write_equal_word_runs(_within) writes each run of equal words as its word and length, as a plain loop finds them",
          "[snapshot]") {
    test::Rng rng(11);
    for (int trial = 0; trial < 400; ++trial) {
        std::vector<std::uint32_t> words = random_words(rng, 0);
        // Short arrays too: fewer words than one vector step, and a tail after the last step.
        if (trial % 4 == 0) words.resize(1 + rng.below(std::min<std::uint32_t>(7, static_cast<std::uint32_t>(words.size()))));
        const auto count = static_cast<std::uint32_t>(words.size());
        std::vector<std::uint32_t> model;  // word, length, word, length...
        for (std::uint32_t start = 0, i = 1; i <= count; ++i) {
            if (i < count && words[i] == words[start]) continue;
            model.push_back(words[start]);
            model.push_back(i - start);
            start = i;
        }
        INFO("trial " << trial << ", " << count << " words, " << model.size() / 2 << " runs");
        REQUIRE(model.size() / 2 == count_word_runs(words.data(), 0, count, count, 0));
        // One word past the runs' room, which the write must leave alone.
        std::vector<std::uint32_t> out(model.size() + 1, 0xA5A5A5A5u);
        const std::uint32_t runs = write_equal_word_runs(words.data(), count, reinterpret_cast<unsigned char*>(out.data()));
        CHECK(runs == model.size() / 2);
        CHECK(std::vector<std::uint32_t>(out.begin(), out.end() - 1) == model);
        CHECK(out.back() == 0xA5A5A5A5u);
        // Within a limit: all of them at or under it, else limit + 1, never a word past its room.
        const auto expected = static_cast<std::uint32_t>(model.size() / 2);
        for (const std::uint32_t limit : {expected + 3, expected, expected - 1, expected / 2, 1u}) {
            if (limit == 0) continue;
            std::vector<std::uint32_t> within(2 * std::size_t(limit) + 1, 0xA5A5A5A5u);
            const std::uint32_t got = write_equal_word_runs_within(words.data(), count, limit, reinterpret_cast<unsigned char*>(within.data()));
            CHECK(got == (expected <= limit ? expected : limit + 1));
            if (expected <= limit) CHECK(std::vector<std::uint32_t>(within.begin(), within.begin() + 2 * std::ptrdiff_t(expected)) == model);
            CHECK(within.back() == 0xA5A5A5A5u);
        }
    }
}
