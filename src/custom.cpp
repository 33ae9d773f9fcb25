// Custom reductions (docs/FILTER.md): the caller's GLSL is compiled at run time with shaderc into
// the single-pass shader, whose text is embedded in the library, once per distinct source text
// (the general kernel at once, the plain-chain and halo-stage kernels on first use).
// The same compiler builds the general kernel's variant for scratch data bound in several ranges
// (compileSinglePass with VKSPD_DATA_RANGES; docs/DESIGN.md, "Scratch and concurrency").
#include "context.hpp"

#include <cstring>
#include <utility>
#include <vector>

#ifdef VKSPD_WITH_SHADERC
#include <shaderc/shaderc.h>
#endif

namespace vkspd {

#ifdef VKSPD_WITH_SHADERC
namespace {

constexpr const char* kCustomInclude = "vkspd_custom_reduction.glsl";
constexpr const char* kSharedInclude = "vkspd_shared.h";
constexpr const char* kCommonInclude = "vkspd_common.glsl";
constexpr const char* kSumsInclude = "vkspd_sums.glsl";

// The files the shaders include: the shared header, the kernels' common declarations, the
// summed-levels kernel's phase, and the caller's reduction.
struct IncludeContext {
    const std::string* userSource;
};

shaderc_include_result* resolveInclude(void* userData, const char* requested, int, const char*, size_t) {
    auto* ctx = static_cast<IncludeContext*>(userData);
    auto* result = new (std::nothrow) shaderc_include_result{};
    if (!result) return nullptr;
    if (std::strcmp(requested, kCustomInclude) == 0) {
        result->source_name = kCustomInclude;
        result->source_name_length = std::strlen(kCustomInclude);
        result->content = ctx->userSource->c_str();
        result->content_length = ctx->userSource->size();
    } else if (std::strcmp(requested, kSharedInclude) == 0) {
        result->source_name = kSharedInclude;
        result->source_name_length = std::strlen(kSharedInclude);
        result->content = embeddedSharedText();
        result->content_length = std::strlen(embeddedSharedText());
    } else if (std::strcmp(requested, kCommonInclude) == 0) {
        result->source_name = kCommonInclude;
        result->source_name_length = std::strlen(kCommonInclude);
        result->content = embeddedCommonText();
        result->content_length = std::strlen(embeddedCommonText());
    } else if (std::strcmp(requested, kSumsInclude) == 0) {
        result->source_name = kSumsInclude;
        result->source_name_length = std::strlen(kSumsInclude);
        result->content = embeddedSumsText();
        result->content_length = std::strlen(embeddedSumsText());
    } else {
        // An empty name tells shaderc the include failed; content is the message.
        static const char kMessage[] =
            "only vkspd_shared.h, vkspd_common.glsl, vkspd_sums.glsl and the custom reduction can be included";
        result->source_name = "";
        result->source_name_length = 0;
        result->content = kMessage;
        result->content_length = sizeof(kMessage) - 1;
    }
    return result;
}

void releaseInclude(void*, shaderc_include_result* result) { delete result; }

// Compiles `text` (the file `fileName`) into SPIR-V with the macros `defines`, its includes served
// by resolveInclude (`source`: the caller's reduction, where `custom`). `who` names the caller in
// errors.
Result compileKernel(const char* text, const char* fileName, const std::string& source, const char* who, bool custom,
                     const std::vector<std::pair<const char*, std::string>>& defines, std::vector<uint32_t>* words) {
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t options = shaderc_compile_options_initialize();
    if (!compiler || !options) {
        shaderc_compile_options_release(options);
        shaderc_compiler_release(compiler);
        return fail(VK_ERROR_OUT_OF_HOST_MEMORY, std::string(who) + ": shaderc could not start");
    }
    for (const auto& d : defines)
        shaderc_compile_options_add_macro_definition(options, d.first, std::strlen(d.first), d.second.c_str(),
                                                     d.second.size());
    shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
    shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
    IncludeContext ctx{&source};
    shaderc_compile_options_set_include_callbacks(options, resolveInclude, releaseInclude, &ctx);
    shaderc_compilation_result_t result =
        shaderc_compile_into_spv(compiler, text, std::strlen(text), shaderc_compute_shader, fileName, "main", options);
    Result r;
    if (!result) {
        r = fail(VK_ERROR_OUT_OF_HOST_MEMORY, std::string(who) + ": shaderc returned no result");
    } else if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success) {
        r = fail(VK_ERROR_UNKNOWN, std::string(who) +
                                       (custom ? ": the reduction does not compile:\n"
                                               : ": the kernel does not compile:\n") +
                                       shaderc_result_get_error_message(result));
    } else {
        const size_t bytes = shaderc_result_get_length(result);
        words->resize(bytes / 4);
        std::memcpy(words->data(), shaderc_result_get_bytes(result), bytes);
    }
    shaderc_result_release(result);
    shaderc_compile_options_release(options);
    shaderc_compiler_release(compiler);
    return r;
}

}  // namespace

Result compileSinglePass(Context, const std::string* customSource, uint32_t reduction, bool fp16, bool quad,
                         uint32_t dataRanges, std::vector<uint32_t>* words) {
    const std::string noSource;
    const bool custom = reduction == VKSPD_REDUCTION_CUSTOM;
    return compileKernel(embeddedComputeText(), "vkspd.comp", customSource ? *customSource : noSource,
                         custom ? "createCustomReduction" : "the single pass", custom,
                         {{"VKSPD_FP16", fp16 ? "1" : "0"},
                          {"VKSPD_QUAD", quad ? "1" : "0"},
                          {"VKSPD_REDUCTION", std::to_string(reduction)},
                          {"VKSPD_DATA_RANGES", std::to_string(dataRanges)}},
                         words);
}

Result compilePlainKernel(Context, const std::string* customSource, const PlainModule& m,
                          std::vector<uint32_t>* words) {
    const std::string noSource;
    const bool custom = m.reduction == VKSPD_REDUCTION_CUSTOM;
    const std::string kernel = m.sums ? "summed-levels kernel" : m.halo ? "halo-stage kernel" : "plain-chain kernel";
    std::string who = (custom ? "the custom reduction's " : "the ") + kernel;
    if (!m.quad) who += " without quad operations";
    else if (!m.shuffleRelative) who += " without relative shuffles";
    return compileKernel(embeddedPlainText(), "vkspd_plain.comp", customSource ? *customSource : noSource, who.c_str(),
                         custom,
                         {{"VKSPD_FP16", m.fp16 ? "1" : "0"},
                          {"VKSPD_QUAD", m.quad ? "1" : "0"},
                          {"VKSPD_REDUCTION", std::to_string(m.reduction)},
                          {"VKSPD_HALO", std::to_string(m.halo)},
                          {"VKSPD_SUMS", m.sums ? "1" : "0"},
                          {"VKSPD_SHUFFLE_RELATIVE", m.shuffleRelative ? "1" : "0"}},
                         words);
}

bool runtimeCompilerAvailable() { return true; }
#else
Result compileSinglePass(Context, const std::string*, uint32_t, bool, bool, uint32_t, std::vector<uint32_t>*) {
    return fail(VK_ERROR_FEATURE_NOT_PRESENT, "this vkspd was built without shaderc (VKSPD_WITH_SHADERC)");
}

Result compilePlainKernel(Context, const std::string*, const PlainModule&, std::vector<uint32_t>*) {
    return fail(VK_ERROR_FEATURE_NOT_PRESENT, "this vkspd was built without shaderc (VKSPD_WITH_SHADERC)");
}

bool runtimeCompilerAvailable() { return false; }
#endif

// A reduction's pipelines: its two embedded-layout ones, its plain and halo kernels' and those made
// for data in ranges. The caller holds pipelineMutex.
void destroyCustomPipelines(Context c, CustomReductionT* reduction) {
    for (VkPipeline p : reduction->pipelines) c->fn.vkDestroyPipeline(c->device(), p, c->allocator());
    for (const auto& entry : reduction->plainPipelines)
        c->fn.vkDestroyPipeline(c->device(), entry.second, c->allocator());
    reduction->plainPipelines.clear();
    for (auto it = c->rangedPipelines.begin(); it != c->rangedPipelines.end();) {
        if (std::get<0>(it->first) != reduction) {
            ++it;
            continue;
        }
        c->fn.vkDestroyPipeline(c->device(), it->second, c->allocator());
        it = c->rangedPipelines.erase(it);
    }
}

Result createCustomReduction(Context c, const char* glsl, CustomReduction* out) noexcept {
    return guarded([&]() -> Result {
        if (!out) return fail(VK_ERROR_UNKNOWN, "createCustomReduction: the output pointer is null");
        *out = nullptr;
        if (!c) return fail(VK_ERROR_UNKNOWN, "createCustomReduction: the context is null");
        if (!contextIsLive(c)) return fail(VK_ERROR_UNKNOWN, "createCustomReduction: " + deadContextMessage(c));
        if (!glsl) return fail(VK_ERROR_UNKNOWN, "createCustomReduction: the GLSL source is null");
#ifndef VKSPD_WITH_SHADERC
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "createCustomReduction: this vkspd was built without shaderc (VKSPD_WITH_SHADERC)");
#else
        const std::string source(glsl);
        {
            std::lock_guard<std::mutex> lock(c->pipelineMutex);
            auto it = c->customReductions.find(source);
            if (it != c->customReductions.end()) {
                ++it->second->references;
                *out = it->second.get();
                return {};
            }
        }
        // Compile outside the lock (it takes a while); a race compiles twice and keeps the first.
        auto reduction = std::make_unique<CustomReductionT>();
        reduction->source = source;
        reduction->references = 1;
        for (int quad = 0; quad < 2; ++quad) {
            if (quad && !c->quadSupported) continue;
            std::vector<uint32_t> words;
            Result r = compileSinglePass(c, &source, VKSPD_REDUCTION_CUSTOM, false, quad != 0, 1, &words);
            if (r.ok()) r = createComputePipeline(c, words.data(), words.size() * 4, &reduction->pipelines[quad]);
            if (!r.ok()) {
                for (VkPipeline p : reduction->pipelines) c->fn.vkDestroyPipeline(c->device(), p, c->allocator());
                return r;
            }
        }
        std::lock_guard<std::mutex> lock(c->pipelineMutex);
        auto it = c->customReductions.find(source);
        if (it != c->customReductions.end()) {
            // Another thread compiled the same text first: use its pipelines.
            destroyCustomPipelines(c, reduction.get());
            ++it->second->references;
            *out = it->second.get();
            return {};
        }
        *out = reduction.get();
        c->customReductions.emplace(source, std::move(reduction));
        return {};
#endif
    });
}

void destroyCustomReduction(Context c, CustomReduction reduction) noexcept {
    if (!c || !reduction || !contextIsLive(c)) return;
    std::lock_guard<std::mutex> lock(c->pipelineMutex);
    auto it = c->customReductions.find(reduction->source);
    if (it == c->customReductions.end() || it->second.get() != reduction) return;
    if (--reduction->references > 0) return;
    destroyCustomPipelines(c, reduction);
    c->customReductions.erase(it);
}

}  // namespace vkspd
