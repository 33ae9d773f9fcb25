// Links vkspd and calls into it without a GPU: the public headers, the library and the CPU
// reference resolve from the consumer's side. With shaderc, createCustomReduction pulls the
// run-time compiler into the link, so its archives must resolve through the package too.
#include <vkspd/debug.hpp>
#include <vkspd/reference.hpp>
#include <vkspd/vkspd.hpp>

#include <cstdio>

int main() {
    vkspd::Context context = nullptr;
    vkspd::ContextCreateInfo info;  // empty: must fail with a message, not crash
    vkspd::Result r = vkspd::createContext(info, &context);
    const float texels[3] = {0.0f, 0.0f, 3.0f};
    auto chain = vkspd::referenceChain(texels, 3, 1, 1, 2);
    vkspd::PipelineResources group;
    group.threadsPerGroup = 256;
    group.subgroupSize = 32;
    vkspd::SmLimits sm;
    sm.threadsPerSm = 2048;
    bool ok = !r.ok() && !r.message.empty() && context == nullptr && chain.size() == 2 &&
              chain[1].texels[0] == 1.0 && vkspd::computeOccupancy(group, sm).groupsPerSm == 8;
    vkspd::CustomReduction custom = nullptr;
    const vkspd::Result c = vkspd::createCustomReduction(
        nullptr, "vec4 vkspdIdentity() { return vec4(0.0); }", &custom);
    ok = ok && !c.ok() && custom == nullptr;
#ifdef CONSUMER_WITH_SHADERC
    std::printf("consumer: with shaderc\n");
#endif
    std::printf("consumer: %s (%s; %s)\n", ok ? "ok" : "FAILED", r.message.c_str(), c.message.c_str());
    return ok ? 0 : 1;
}
