#include "report.hpp"

#include "options.hpp"

#include <cmath>
#include <cstdio>

namespace vkspd_cli {

const char* pathName(vkspd::Path path) {
    switch (path) {
    case vkspd::Path::SinglePass: return "single-pass";
    case vkspd::Path::RenderPass: return "render-pass";
    case vkspd::Path::BlitChain: return "blit-chain";
    case vkspd::Path::None: return "none";
    }
    return "?";
}

namespace {

// A small JSON writer: objects and arrays with commas placed for the caller.
class Json {
public:
    std::string text;

    void open(char bracket) {
        comma();
        text += bracket;
        first_ = true;
    }
    void close(char bracket) {
        text += bracket;
        first_ = false;
    }
    void key(const char* k) {
        comma();
        string(k);
        text += ':';
        first_ = true;  // the value follows without a comma
    }
    void value(const std::string& s) {
        comma();
        string(s);
    }
    void value(const char* s) { value(std::string(s)); }
    void value(bool b) {
        comma();
        text += b ? "true" : "false";
    }
    void value(double d) {
        comma();
        if (!std::isfinite(d)) {
            text += "null";  // JSON has no infinity or NaN
            return;
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", d);
        text += buf;
    }
    void value(uint64_t u) {
        comma();
        text += std::to_string(u);
    }
    void value(uint32_t u) { value(uint64_t(u)); }
    void value(int i) {
        comma();
        text += std::to_string(i);
    }
    template <typename T>
    void field(const char* k, const T& v) {
        key(k);
        value(v);
    }

private:
    void comma() {
        if (!first_) text += ',';
        first_ = false;
    }
    void string(const std::string& s) {
        text += '"';
        for (unsigned char ch : s) {
            switch (ch) {
            case '"': text += "\\\""; break;
            case '\\': text += "\\\\"; break;
            case '\n': text += "\\n"; break;
            case '\r': text += "\\r"; break;
            case '\t': text += "\\t"; break;
            default:
                if (ch < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", ch);
                    text += buf;
                } else {
                    text += char(ch);  // UTF-8 passes through
                }
            }
        }
        text += '"';
    }
    bool first_ = true;
};

const char* precisionName(vkspd::Precision p) {
    return p == vkspd::Precision::FP16 ? "fp16" : p == vkspd::Precision::FP32 ? "fp32" : "auto";
}

const char* subgroupName(vkspd::SubgroupPath p) {
    return p == vkspd::SubgroupPath::Quad ? "quad" : p == vkspd::SubgroupPath::LdsOnly ? "lds" : "auto";
}

std::string mhz(uint32_t value) { return value ? std::to_string(value) + " MHz" : "?"; }

}  // namespace

std::string benchText(const ChainResult& c, bool warm, bool cold) {
    if (!c.benchNote.empty()) return "  bench: skipped: " + c.benchNote + "\n";
    const std::string note = c.smClockNote.empty() ? "" : " (" + c.smClockNote + ")";
    const std::string noClock = "SM clock: not available" + note;
    std::string text;
    char line[256];
    if (cold && c.benchCold.runs) {
        const ColdBenchResult& b = c.benchCold;
        std::snprintf(line, sizeof line,
                      "  bench (cold): %u run%s, each alone after %u ms with the GPU idle: median %.1f us, min %.1f "
                      "us, max %.1f us, %.2f GB/s effective\n",
                      b.runs, b.runs == 1 ? "" : "s", kColdIdleMs, b.medianUs, b.minUs, b.maxUs, b.gbPerSecond);
        text += line;
        std::string clocks;
        for (uint32_t m : b.clockMhz) clocks += (clocks.empty() ? "" : ", ") + mhz(m);
        text += "  bench (cold): " + (c.smClock ? "SM clock before each run: " + clocks + note : noClock) + "\n";
    }
    if (warm && c.bench.runs) {
        const BenchResult& b = c.bench;
        text += "  bench: " +
                vkspd_tools::warmupSummary(benchWarmupRule(), b.warmup.progress, b.warmup.verdict) + "\n";
        text += "  bench: " +
                (c.smClock ? "SM clock " + mhz(b.warmup.clockBeforeMhz) + " before the warm-up, " +
                                 mhz(b.warmup.clockAfterMhz) + " after it, " + mhz(b.clockAfterTimingMhz) +
                                 " after timing" + note
                           : noClock) +
                "\n";
        std::snprintf(line, sizeof line,
                      "  bench: %u runs after the warm-up: median %.1f us, min %.1f us, %.2f GB/s effective\n",
                      b.runs, b.medianUs, b.minUs, b.gbPerSecond);
        text += line;
    }
    return text;
}

std::string jsonReport(const RunInfo& run, const std::vector<FileReport>& files) {
    Json j;
    j.open('{');
    j.field("tool", "vkspd");
    j.field("exitCode", run.exitCode);
    if (run.gpu) {
        const VkPhysicalDeviceProperties& p = run.gpu->properties;
        j.key("device");
        j.open('{');
        j.field("index", run.gpu->index);
        j.field("name", p.deviceName);
        j.field("type", vkspd_tools::deviceTypeName(p.deviceType));
        j.field("apiVersion", std::to_string(VK_API_VERSION_MAJOR(p.apiVersion)) + "." +
                                  std::to_string(VK_API_VERSION_MINOR(p.apiVersion)) + "." +
                                  std::to_string(VK_API_VERSION_PATCH(p.apiVersion)));
        j.field("driverVersion", p.driverVersion);
        j.field("vendorId", p.vendorID);
        j.field("deviceId", p.deviceID);
        j.field("maxImageDimension2D", p.limits.maxImageDimension2D);
        j.field("timestampPeriodNs", double(p.limits.timestampPeriod));
        j.close('}');
    }
    j.field("validation", run.validation);
    if (run.validation) j.field("validationMessages", run.validationMessages);
    j.key("request");
    j.open('{');
    j.field("reduction", reductionName(run.reduction));
    j.field("precision", precisionName(run.precision));
    j.field("subgroupPath", subgroupName(run.subgroupPath));
    j.close('}');
    j.key("files");
    j.open('[');
    for (const FileReport& f : files) {
        j.open('{');
        j.field("input", f.input);
        j.field("ok", f.exitCode == 0);
        j.field("exitCode", f.exitCode);
        if (!f.error.empty()) j.field("error", f.error);
        if (f.width) {
            j.field("width", f.width);
            j.field("height", f.height);
            j.field("fileChannels", f.fileChannels);
            j.field("fileBitsPerChannel", f.fileBits);
            j.field("srgbInput", f.srgbInput);
        }
        if (f.format != VK_FORMAT_UNDEFINED) {
            j.field("format", formatName(f.format));
            j.field("vkFormat", uint32_t(f.format));
        }
        if (f.ran) {
            const ChainResult& c = f.chain;
            j.field("levels", c.levels);
            j.key("levelSizes");
            j.open('[');
            for (uint32_t l = 0; l < c.levels; ++l) {
                j.open('[');
                j.value(std::max(1u, f.width >> l));
                j.value(std::max(1u, f.height >> l));
                j.close(']');
            }
            j.close(']');
            j.key("dispatch");
            j.open('{');
            j.field("path", pathName(c.dispatch.path));
            j.key("groups");
            j.open('[');
            j.value(c.dispatch.groupsX);
            j.value(c.dispatch.groupsY);
            j.value(c.dispatch.groupsZ);
            j.close(']');
            j.field("fp16", c.dispatch.fp16);
            j.field("quad", c.dispatch.quad);
            j.field("exactOddEdges", c.schedule.exactOddEdges);
            j.field("imageUsage", uint32_t(c.usage));
            j.field("imageCreateFlags", uint32_t(c.createFlags));
            j.close('}');
        }
        j.key("timingsMs");
        j.open('{');
        j.field("load", f.timings.loadMs);
        j.field("convert", f.timings.convertMs);
        j.field("gpu", f.timings.gpuMs);
        j.field("verify", f.timings.verifyMs);
        j.field("write", f.timings.writeMs);
        j.close('}');
        if (f.chain.bench.runs || f.chain.benchCold.runs) {
            j.key("smClock");
            j.open('{');
            j.field("available", f.chain.smClock);
            if (!f.chain.smClockNote.empty()) j.field("note", f.chain.smClockNote);
            j.close('}');
        }
        if (f.chain.bench.runs) {
            const BenchResult& b = f.chain.bench;
            const vkspd_tools::WarmupProgress& w = b.warmup.progress;
            const vkspd_tools::WarmupRule rule = benchWarmupRule();
            j.key("bench");
            j.open('{');
            j.field("runs", b.runs);
            j.field("warmupRuns", w.calls);
            j.key("warmup");
            j.open('{');
            j.field("steady", b.warmup.verdict == vkspd_tools::WarmupVerdict::Steady);
            j.field("calls", w.calls);
            j.field("batches", w.batches);
            j.field("spanMs", w.spanMs);
            j.field("gpuWorkMs", w.gpuMs);
            j.field("wallMs", w.wallMs);
            j.field("lastMedianUs", w.medianUs);
            j.field("previousMedianUs", w.previousMedianUs);
            j.field("agreeingBatches", w.runBatches);
            j.field("agreeingGpuWorkMs", w.runGpuMs);
            j.field("ruleMinGpuWorkMs", rule.minGpuMs);
            j.field("ruleAgreeingGpuWorkMs", rule.stableGpuMs);
            j.field("ruleAgreement", rule.agreement);
            j.field("ruleCapMs", rule.maxWallMs);
            j.close('}');
            if (f.chain.smClock) {
                j.key("smClockMhz");
                j.open('{');
                j.field("beforeWarmup", b.warmup.clockBeforeMhz);
                j.field("afterWarmup", b.warmup.clockAfterMhz);
                j.field("afterTiming", b.clockAfterTimingMhz);
                j.close('}');
            }
            j.field("medianUs", b.medianUs);
            j.field("minUs", b.minUs);
            j.field("effectiveGBps", b.gbPerSecond);
            j.close('}');
        }
        if (f.chain.benchCold.runs) {
            const ColdBenchResult& b = f.chain.benchCold;
            j.key("benchCold");
            j.open('{');
            j.field("runs", b.runs);
            j.field("idleMsBeforeEach", kColdIdleMs);
            j.field("medianUs", b.medianUs);
            j.field("minUs", b.minUs);
            j.field("maxUs", b.maxUs);
            j.field("effectiveGBps", b.gbPerSecond);
            if (f.chain.smClock) {
                j.key("smClockMhzBeforeEach");
                j.open('[');
                for (uint32_t m : b.clockMhz) j.value(m);
                j.close(']');
            }
            j.close('}');
        }
        if (!f.chain.benchNote.empty()) {
            j.field("benchSkipped", f.chain.benchNote);
        }
        if (f.verified) {
            const Verification& v = f.verification;
            j.key("verify");
            j.open('{');
            j.field("ok", v.ok);
            if (!v.problem.empty()) j.field("problem", v.problem);
            j.field("tolerance", v.tolerance);
            j.field("unit", v.unit);
            j.key("levels");
            j.open('[');
            for (const LevelCheck& c : v.levels) {
                j.open('{');
                j.field("level", c.level);
                j.field("width", c.width);
                j.field("height", c.height);
                j.field("worstError", c.error.worst);
                j.key("worstTexel");
                j.open('[');
                j.value(uint64_t(c.error.worstTexel % c.width));
                j.value(uint64_t(c.error.worstTexel / c.width));
                j.close(']');
                j.field("worstChannel", c.error.worstChannel);
                j.field("overTolerance", uint64_t(c.error.overTolerance));
                j.field("nanMismatch", c.error.nanMismatch);
                j.close('}');
            }
            j.close(']');
            j.close('}');
        }
        if (!f.outputDir.empty()) j.field("outputDir", f.outputDir);
        j.key("outputs");
        j.open('[');
        for (const std::string& o : f.outputs) j.value(o);
        j.close(']');
        if (!f.outputs.empty()) j.field("contactSheetFirstLevel", f.contactSheetFirstLevel);
        j.close('}');
    }
    j.close(']');
    j.close('}');
    return j.text + "\n";
}

}  // namespace vkspd_cli
