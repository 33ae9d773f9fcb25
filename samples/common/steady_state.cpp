#include "steady_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vkspd_tools {

double medianOf(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

bool mediansAgree(double a, double b, double within) {
    if (a <= 0 || b <= 0) return a == b;
    return std::fabs(a - b) <= within * std::min(a, b);
}

void addBatch(const WarmupRule& rule, WarmupProgress* p, const std::vector<double>& callUs) {
    double sumUs = 0;
    for (double us : callUs) sumUs += us;
    p->calls += callUs.size();
    p->gpuMs += sumUs * 1e-3;
    p->previousMedianUs = p->batches ? p->medianUs : 0;
    p->medianUs = medianOf(callUs);
    ++p->batches;
    if (p->runBatches && mediansAgree(p->medianUs, p->runMedianUs, rule.agreement)) {
        ++p->runBatches;
        p->runGpuMs += sumUs * 1e-3;
    } else {
        p->runMedianUs = p->medianUs;
        p->runBatches = 1;
        p->runGpuMs = sumUs * 1e-3;
    }
}

WarmupVerdict judgeWarmup(const WarmupRule& rule, const WarmupProgress& p) {
    if (p.gpuMs >= rule.minGpuMs && p.runBatches >= 2 && p.runGpuMs >= rule.stableGpuMs &&
        mediansAgree(p.medianUs, p.runMedianUs, rule.agreement))
        return WarmupVerdict::Steady;
    if (p.wallMs >= rule.maxWallMs || p.calls >= rule.maxCalls) return WarmupVerdict::Capped;
    return WarmupVerdict::Continue;
}

uint32_t nextBatchCalls(const WarmupRule& rule, const WarmupProgress& p) {
    const uint32_t fewest = std::max(1u, std::min(rule.firstBatchCalls, rule.maxBatchCalls));
    if (p.batches == 0) return fewest;
    if (!(p.medianUs > 0)) return rule.maxBatchCalls;
    const double calls = std::ceil(rule.batchGpuMs * 1e3 / p.medianUs);
    return uint32_t(std::clamp(calls, double(fewest), double(rule.maxBatchCalls)));
}

std::string withThousands(uint64_t value) {
    std::string digits = std::to_string(value), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string warmupSummary(const WarmupRule& rule, const WarmupProgress& p, WarmupVerdict verdict) {
    char medians[192];
    const double percent = rule.agreement * 100;
    if (p.batches >= 2)
        std::snprintf(medians, sizeof medians,
                      "the last two batches' medians %.1f and %.1f us, %s %g%%; %u agreeing batches over %.0f ms",
                      p.previousMedianUs, p.medianUs,
                      mediansAgree(p.medianUs, p.previousMedianUs, rule.agreement) ? "within" : "not within", percent,
                      p.runBatches, p.runGpuMs);
    else
        std::snprintf(medians, sizeof medians, "one batch, median %.1f us", p.medianUs);
    std::string text = "warmed up for " + withThousands(uint64_t(std::llround(p.spanMs))) + " ms, " +
                       withThousands(p.calls) + " calls (GPU work " + withThousands(uint64_t(std::llround(p.gpuMs))) +
                       " ms; " + medians + ")";
    if (verdict == WarmupVerdict::Capped) {
        char cap[160];
        if (p.calls >= rule.maxCalls)
            std::snprintf(cap, sizeof cap, ": stopped at the cap of %s calls, not steady",
                          withThousands(rule.maxCalls).c_str());
        else
            std::snprintf(cap, sizeof cap, ": stopped at the cap of %g s, not steady", rule.maxWallMs * 1e-3);
        text += cap;
    }
    return text;
}

}  // namespace vkspd_tools
