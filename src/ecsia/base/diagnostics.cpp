#include "ecsia/base/diagnostics.hpp"

#include <cstdio>

namespace ecsia {

Diagnostics::Diagnostics()
    : sink_([](const std::string& message) { std::fprintf(stderr, "[ecsia] %s\n", message.c_str()); }) {}

void Diagnostics::set_sink(DiagnosticSink sink) {
    if (sink) sink_ = std::move(sink);
}

void Diagnostics::report(const std::string& message) {
    ++reported_count_;
    sink_(message);
}

}  // namespace ecsia
