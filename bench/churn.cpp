// The *churn* workload of DESIGN.md: spawn (from a reservation), despawn, add and remove recorded in
// a CommandBuffer and applied with World::apply, as a mixed sequence: the four kinds interleave,
// each record targets a different entity (nothing folds), and the population stays level (10,000
// and 100,000 entities by default). Reports records applied per second of World::apply alone (by
// thread-CPU time, wall time beside it), and the whole cycle (reserve + record + apply).
//
// Build and run (see docs/PERFORMANCE.md):
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DECSIA_BUILD_TESTS=OFF
//   cmake --build build-bench -j2 --target bench_churn && ./build-bench/bench/bench_churn

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "workloads/churn.hpp"

namespace {

using churn::Churn;
using churn::kOpsDivisor;

constexpr int kRepetitions = 15;
constexpr double kSampleSeconds = 0.05;

struct Measured {
    // Per repetition, in million records per second.
    std::vector<double> apply_cpu_rate, apply_wall_rate, cycle_cpu_rate;
    std::uint64_t applied = 0, records = 0, skipped = 0;
    std::uint32_t alive_at_end = 0;
    std::size_t diagnostics = 0;
    int frames = 0;
};

Measured run_population(std::uint32_t population) {
    Churn churn(population);
    for (int i = 0; i < 5; ++i) churn.frame();  // warm up: tables, edges, buffer capacity
    churn.reset_totals();
    for (int i = 0; i < 5; ++i) churn.frame();
    const double one_frame = (churn.apply_time().cpu + churn.record_time().cpu) / 5;
    Measured m;
    m.frames = std::max(2, static_cast<int>(kSampleSeconds / std::max(one_frame, 1e-6)));
    for (int rep = 0; rep < kRepetitions; ++rep) {
        churn.reset_totals();
        for (int f = 0; f < m.frames; ++f) churn.frame();
        const double applied = double(churn.applied()) / 1e6;
        m.apply_cpu_rate.push_back(applied / churn.apply_time().cpu);
        m.apply_wall_rate.push_back(applied / churn.apply_time().wall);
        m.cycle_cpu_rate.push_back(applied / (churn.apply_time().cpu + churn.record_time().cpu));
        m.applied += churn.applied();
        m.records += churn.records();
        m.skipped += churn.skipped();
    }
    m.alive_at_end = churn.alive();
    m.diagnostics = churn.diagnostics();
    return m;
}

void print_row(const char* label, const std::vector<double>& samples) {
    std::printf("  %-44s %9.2f %9.2f %9.2f\n", label, bench::median(samples), bench::min_of(samples),
                bench::max_of(samples));
}

}  // namespace

// Optional arguments: populations to run instead of the default 10,000 and 100,000.
int main(int argc, char** argv) {
    const std::string json_path = bench::take_json_path(argc, argv);
    std::vector<std::string> json_populations;
    std::vector<std::uint32_t> populations = {10'000u, 100'000u};
    if (argc > 1) {
        populations.clear();
        for (int i = 1; i < argc; ++i) populations.push_back(static_cast<std::uint32_t>(std::strtoul(argv[i], nullptr, 10)));
    }
    std::printf("churn workload: mixed spawn (from a reservation) / add / despawn / remove records through one\n"
                "CommandBuffer per frame, population/%u of each kind per frame, each on a different random entity\n"
                "(%d repetitions; million records per second of World::apply, by thread-CPU time unless noted)\n\n",
                kOpsDivisor, kRepetitions);
    std::vector<bench::Verdict> verdicts;
    std::vector<std::string> names;
    names.reserve(populations.size());  // Verdict keeps the name pointer
    bool all_applied = true;
    for (std::uint32_t population : populations) {
        const Measured m = run_population(population);
        std::printf("population %u, %u records per frame, %d frames per repetition\n", population,
                    population / kOpsDivisor * 4, m.frames);
        std::printf("  %-44s %9s %9s %9s\n", "million records/s", "median", "min", "max");
        print_row("World::apply", m.apply_cpu_rate);
        print_row("World::apply, by wall clock", m.apply_wall_rate);
        print_row("reserve + record + World::apply", m.cycle_cpu_rate);
        std::printf("  World::apply median: %.1f ns per record\n", 1e3 / bench::median(m.apply_cpu_rate));
        std::printf("  records recorded %llu, applied %llu, skipped %llu; alive at end %u; diagnostics %zu\n\n",
                    static_cast<unsigned long long>(m.records), static_cast<unsigned long long>(m.applied),
                    static_cast<unsigned long long>(m.skipped), m.alive_at_end, m.diagnostics);
        const bool ok = m.applied == m.records && m.skipped == 0 && m.diagnostics == 0;
        if (!ok) std::printf("ERROR: not every record applied cleanly\n");
        all_applied = all_applied && ok;
        json_populations.push_back(
            bench::json_object({bench::json_member("population", std::to_string(population)),
                                    bench::json_member("apply_mrps", bench::json_number(bench::median(m.apply_cpu_rate))),
                                    bench::json_member("apply_wall_mrps", bench::json_number(bench::median(m.apply_wall_rate))),
                                    bench::json_member("cycle_mrps", bench::json_number(bench::median(m.cycle_cpu_rate))),
                                    bench::json_member("clean", bench::json_bool(ok))}));
        names.push_back("churn_" + std::to_string(population) + "_records_applied_per_second");
        verdicts.push_back({names.back().c_str(), bench::median(m.apply_cpu_rate), 10.0, false, "M/s"});
    }
    const bool written = bench::write_json(json_path, bench::json_object({bench::json_member("populations", bench::json_array(json_populations))}));
    return bench::report_targets(verdicts) == 0 && all_applied && written ? 0 : 1;
}
