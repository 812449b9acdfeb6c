// The diagnostic channel's own rules (src/ecsia/base/diagnostics.hpp): naming by the system whose
// work is done, and a diagnostic repeated frame after frame said once, then with its count.

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ecsia/base/diagnostics.hpp"

using ecsia::Diagnostics;

namespace {

struct Said {
    explicit Said(Diagnostics& diagnostics) {
        diagnostics.set_sink([this](const std::string& message) { messages.push_back(message); });
    }
    std::vector<std::string> messages;
};

}  // namespace

TEST_CASE("outside frames every report is said, however often it repeats", "[diagnostics]") {
    Diagnostics diagnostics;
    Said said(diagnostics);
    for (int i = 0; i < 5; ++i) diagnostics.report("entity slot 3 used all its generations");
    CHECK(said.messages.size() == 5);
    CHECK(diagnostics.repeats_counted() == 0);
}

TEST_CASE("a source names the system; report_for does not name it twice", "[diagnostics]") {
    Diagnostics diagnostics;
    Said said(diagnostics);
    const std::string outer = "Outer";
    const std::string inner = "Inner";
    {
        const Diagnostics::Source a(diagnostics, outer);
        diagnostics.report("one");
        {
            const Diagnostics::Source b(diagnostics, inner);
            diagnostics.report("two");
        }
        diagnostics.report("three");
        diagnostics.report_for(inner, "system 'Inner' says four");
    }
    diagnostics.report("five");
    CHECK(said.messages == std::vector<std::string>{"system 'Outer': one", "system 'Inner': two", "system 'Outer': three",
                                                    "system 'Inner' says four", "five"});
}

TEST_CASE("a diagnostic repeated in consecutive frames is said once, then its count when it stops", "[diagnostics]") {
    Diagnostics diagnostics;
    Said said(diagnostics);
    const std::string system = "Spammer";
    for (int frame = 0; frame < 10; ++frame) {
        diagnostics.begin_frame();
        {
            const Diagnostics::Source source(diagnostics, system);
            // Two in one frame: the first frame says both; numbers do not make it another diagnostic.
            diagnostics.report("entity " + std::to_string(frame) + " was stale");
            diagnostics.report("entity " + std::to_string(frame + 100) + " was stale");
        }
        diagnostics.end_frame();
    }
    CHECK(said.messages == std::vector<std::string>{"system 'Spammer': entity 0 was stale",
                                                    "system 'Spammer': entity 100 was stale"});
    CHECK(diagnostics.repeats_counted() == 18);
    diagnostics.begin_frame();  // a frame without it ends the run: the count is said with the last message
    diagnostics.end_frame();
    REQUIRE(said.messages.size() == 3);
    CHECK(said.messages[2] == "system 'Spammer': entity 109 was stale (repeated: 18 more like it in 9 later frame(s))");
    // It starts a new run when it comes back.
    diagnostics.begin_frame();
    {
        const Diagnostics::Source source(diagnostics, system);
        diagnostics.report("entity 5 was stale");
    }
    diagnostics.end_frame();
    CHECK(said.messages.size() == 4);
    CHECK(said.messages[3] == "system 'Spammer': entity 5 was stale");
}

TEST_CASE("a run of repeats that goes on is summarized every kRepeatSummaryFrames frames", "[diagnostics]") {
    Diagnostics diagnostics;
    Said said(diagnostics);
    const std::uint64_t frames = 2 * Diagnostics::kRepeatSummaryFrames + 11;
    for (std::uint64_t frame = 0; frame < frames; ++frame) {
        diagnostics.begin_frame();
        diagnostics.report_for("Loud", "system 'Loud' failed in batch 0");
        diagnostics.end_frame();
    }
    const std::string counted = std::to_string(Diagnostics::kRepeatSummaryFrames);
    REQUIRE(said.messages.size() == 3);
    CHECK(said.messages[0] == "system 'Loud' failed in batch 0");
    CHECK(said.messages[1] == "system 'Loud' failed in batch 0 (repeated: " + counted + " more like it in " + counted +
                                  " later frame(s), still going on)");
    CHECK(said.messages[2] == said.messages[1]);
    // The rest (10 frames) is said when the scheduler goes: nothing counted is lost.
    diagnostics.flush_repeats();
    REQUIRE(said.messages.size() == 4);
    CHECK(said.messages[3] == "system 'Loud' failed in batch 0 (repeated: 10 more like it in 10 later frame(s))");
}

TEST_CASE("repeats are told apart by system and by text", "[diagnostics]") {
    Diagnostics diagnostics;
    Said said(diagnostics);
    const std::string a = "A";
    const std::string b = "B";
    for (int frame = 0; frame < 3; ++frame) {
        diagnostics.begin_frame();
        {
            const Diagnostics::Source source(diagnostics, a);
            diagnostics.report("dropped");
            diagnostics.report("skipped");
        }
        {
            const Diagnostics::Source source(diagnostics, b);
            diagnostics.report("dropped");
        }
        diagnostics.report("dropped");  // no system: a run of its own
        diagnostics.end_frame();
    }
    CHECK(said.messages == std::vector<std::string>{"system 'A': dropped", "system 'A': skipped", "system 'B': dropped",
                                                    "dropped"});
    diagnostics.flush_repeats();  // summaries in the order the runs began
    CHECK(std::vector<std::string>(said.messages.begin() + 4, said.messages.end()) ==
          std::vector<std::string>{"system 'A': dropped (repeated: 2 more like it in 2 later frame(s))",
                                   "system 'A': skipped (repeated: 2 more like it in 2 later frame(s))",
                                   "system 'B': dropped (repeated: 2 more like it in 2 later frame(s))",
                                   "dropped (repeated: 2 more like it in 2 later frame(s))"});
}

TEST_CASE("a diagnostic every other frame is said every time", "[diagnostics]") {
    Diagnostics diagnostics;
    Said said(diagnostics);
    for (int frame = 0; frame < 6; ++frame) {
        diagnostics.begin_frame();
        if (frame % 2 == 0) diagnostics.report_for("Flaky", "system 'Flaky' threw");
        diagnostics.end_frame();
    }
    CHECK(said.messages.size() == 3);
    CHECK(diagnostics.repeats_counted() == 0);
}

TEST_CASE("a frame left open is closed by the next begin_frame", "[diagnostics]") {
    Diagnostics diagnostics;
    Said said(diagnostics);
    diagnostics.begin_frame();
    diagnostics.report("frame 1 ended early");
    diagnostics.begin_frame();  // the failed frame never called end_frame
    diagnostics.report("frame 2 ended early");
    diagnostics.begin_frame();
    diagnostics.end_frame();
    CHECK(said.messages == std::vector<std::string>{"frame 1 ended early", "frame 2 ended early (repeated: 1 more like it in 1 later frame(s))"});
}

TEST_CASE("a sink that reports again while a summary is said loses nothing", "[diagnostics]") {
    Diagnostics diagnostics;
    std::vector<std::string> messages;
    diagnostics.set_sink([&](const std::string& message) {
        messages.push_back(message);
        if (message.find("repeated") != std::string::npos) diagnostics.report("echo");
    });
    for (int frame = 0; frame < 3; ++frame) {
        diagnostics.begin_frame();
        diagnostics.report("again");
        diagnostics.end_frame();
    }
    diagnostics.begin_frame();
    diagnostics.end_frame();
    CHECK(messages == std::vector<std::string>{"again", "again (repeated: 2 more like it in 2 later frame(s))", "echo"});
}
