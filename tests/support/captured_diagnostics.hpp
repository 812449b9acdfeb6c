#pragma once
// Collects a world's diagnostics (G3) so a test can assert what was said, and how often.

#include <algorithm>
#include <string>
#include <vector>

#include "ecsia/world/world.hpp"

namespace test {

class CapturedDiagnostics {
public:
    explicit CapturedDiagnostics(ecsia::World& world) {
        world.diagnostics().set_sink([this](const std::string& message) { messages.push_back(message); });
    }
    CapturedDiagnostics(const CapturedDiagnostics&) = delete;
    CapturedDiagnostics& operator=(const CapturedDiagnostics&) = delete;

    // How many messages contain `text`.
    std::size_t count(const std::string& text) const {
        return static_cast<std::size_t>(std::count_if(messages.begin(), messages.end(), [&](const std::string& m) {
            return m.find(text) != std::string::npos;
        }));
    }

    // How many times `text` happened: a message said counts once, a summary of repeats
    // ("... (repeated: N more like it ...)", ecsia/base/diagnostics.hpp) counts N.
    std::size_t occurrences(const std::string& text) const {
        const std::string marker = " (repeated: ";
        std::size_t total = 0;
        for (const std::string& message : messages) {
            if (message.find(text) == std::string::npos) continue;
            const std::size_t at = message.find(marker);
            total += at == std::string::npos ? 1 : std::stoul(message.substr(at + marker.size()));
        }
        return total;
    }

    std::vector<std::string> messages;
};

}  // namespace test
