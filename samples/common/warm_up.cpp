#include "warm_up.hpp"

#include <chrono>

namespace vkspd_tools {

PciAddress pciAddressOf(VkPhysicalDevice physical) {
    PciAddress a;
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    bool present = false;
    for (const VkExtensionProperties& e : extensions)
        present = present || std::strcmp(e.extensionName, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME) == 0;
    if (!present) return a;
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &pci;
    vkGetPhysicalDeviceProperties2(physical, &p2);
    a.known = true;
    a.domain = pci.pciDomain;
    a.bus = pci.pciBus;
    a.device = pci.pciDevice;
    a.function = pci.pciFunction;
    return a;
}

bool openSmClock(const Gpu& g, SmClock* clock) {
    return clock->open(g.properties.vendorID, pciAddressOf(g.physical));
}

std::vector<double> callTimesUs(const Gpu& g, const std::vector<uint64_t>& stamps, uint32_t calls) {
    const uint64_t mask = g.timestampValidBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << g.timestampValidBits) - 1;
    std::vector<double> us(calls);
    for (uint32_t c = 0; c < calls; ++c)
        us[c] = double((stamps[2 * c + 1] - stamps[2 * c]) & mask) * g.properties.limits.timestampPeriod * 1e-3;
    return us;
}

namespace {

std::string vkError(const char* what, VkResult r) {
    return std::string(what) + " failed (VkResult " + std::to_string(int(r)) + ")";
}

// One batch's command buffer, fence and timestamps.
struct Slot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    uint32_t calls = 0;
    bool submitted = false;
};

// Everything the warm-up creates, waited for and destroyed on every path out.
struct Batches {
    const Gpu& g;
    VkCommandPool pool = VK_NULL_HANDLE;
    Slot slots[2];

    explicit Batches(const Gpu& gpu) : g(gpu) {}
    ~Batches() {
        for (Slot& s : slots)
            if (s.submitted) vkWaitForFences(g.device, 1, &s.fence, VK_TRUE, UINT64_MAX);
        for (Slot& s : slots) {
            if (s.queries) vkDestroyQueryPool(g.device, s.queries, nullptr);
            if (s.fence) vkDestroyFence(g.device, s.fence, nullptr);
        }
        if (pool) vkDestroyCommandPool(g.device, pool, nullptr);
    }

    VkResult create(uint32_t maxCalls) {
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pci.queueFamilyIndex = g.family;
        VkResult r = vkCreateCommandPool(g.device, &pci, nullptr, &pool);
        for (Slot& s : slots) {
            if (r != VK_SUCCESS) return r;
            VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            ai.commandPool = pool;
            ai.commandBufferCount = 1;
            VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
            qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
            qi.queryCount = 2 * maxCalls;
            if ((r = vkAllocateCommandBuffers(g.device, &ai, &s.cmd)) != VK_SUCCESS ||
                (r = vkCreateFence(g.device, &fi, nullptr, &s.fence)) != VK_SUCCESS)
                return r;
            r = vkCreateQueryPool(g.device, &qi, nullptr, &s.queries);
        }
        return r;
    }

    // Records `calls` calls between timestamps into `s` and submits it.
    bool submit(Slot& s, uint32_t calls, const RecordCall& record, std::string* reason) {
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VkResult r = vkResetCommandBuffer(s.cmd, 0);
        if (r == VK_SUCCESS) r = vkBeginCommandBuffer(s.cmd, &begin);
        if (r != VK_SUCCESS) {
            *reason = vkError("recording the warm-up", r);
            return false;
        }
        vkCmdResetQueryPool(s.cmd, s.queries, 0, 2 * calls);
        for (uint32_t c = 0; c < calls; ++c) {
            vkCmdWriteTimestamp(s.cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, s.queries, 2 * c);
            if (!record(s.cmd, reason)) {
                vkEndCommandBuffer(s.cmd);
                return false;
            }
            vkCmdWriteTimestamp(s.cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, s.queries, 2 * c + 1);
        }
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &s.cmd;
        if ((r = vkEndCommandBuffer(s.cmd)) != VK_SUCCESS || (r = vkResetFences(g.device, 1, &s.fence)) != VK_SUCCESS ||
            (r = vkQueueSubmit(g.queue, 1, &si, s.fence)) != VK_SUCCESS) {
            *reason = vkError("submitting the warm-up", r);
            return false;
        }
        s.calls = calls;
        s.submitted = true;
        return true;
    }

    // Waits for `s` and reads its timestamps.
    bool collect(Slot& s, std::vector<uint64_t>* stamps, std::string* reason) {
        VkResult r = vkWaitForFences(g.device, 1, &s.fence, VK_TRUE, UINT64_MAX);
        s.submitted = false;
        stamps->resize(2 * size_t(s.calls));
        if (r == VK_SUCCESS)
            r = vkGetQueryPoolResults(g.device, s.queries, 0, 2 * s.calls, stamps->size() * 8, stamps->data(), 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r != VK_SUCCESS) {
            *reason = vkError("reading the warm-up's timestamps", r);
            return false;
        }
        return true;
    }
};

}  // namespace

bool warmUp(const Gpu& g, const RecordCall& record, const WarmupRule& rule, const SmClock* clock,
            WarmupReport* report, std::string* reason) {
    *report = WarmupReport{};
    WarmupProgress& p = report->progress;
    Batches batches(g);
    if (VkResult r = batches.create(rule.maxBatchCalls); r != VK_SUCCESS) {
        *reason = vkError("preparing the warm-up", r);
        return false;
    }
    const uint64_t mask = g.timestampValidBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << g.timestampValidBits) - 1;
    const double msPerTick = g.properties.limits.timestampPeriod * 1e-6;
    uint64_t firstStamp = 0;
    bool haveFirst = false;
    std::vector<uint64_t> stamps;
    // Adds a collected batch's span; the first stamp of all is the origin.
    auto extendSpan = [&](uint32_t calls) {
        if (!haveFirst) {
            firstStamp = stamps[0];
            haveFirst = true;
        }
        p.spanMs = double((stamps[2 * calls - 1] - firstStamp) & mask) * msPerTick;
    };

    report->clockBeforeMhz = clock ? clock->readMhz() : 0;
    const auto start = std::chrono::steady_clock::now();
    size_t current = 0;
    if (!batches.submit(batches.slots[current], nextBatchCalls(rule, p), record, reason)) return false;
    for (;;) {
        Slot& next = batches.slots[1 - current];
        if (!batches.submit(next, nextBatchCalls(rule, p), record, reason)) return false;
        Slot& done = batches.slots[current];
        if (!batches.collect(done, &stamps, reason)) return false;
        addBatch(rule, &p, callTimesUs(g, stamps, done.calls));
        extendSpan(done.calls);
        p.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        report->verdict = judgeWarmup(rule, p);
        if (report->verdict != WarmupVerdict::Continue) break;
        current = 1 - current;
    }
    report->clockAfterMhz = clock ? clock->readMhz() : 0;
    // The batch still in flight: warm-up too, not judged.
    Slot& last = batches.slots[1 - current];
    if (!batches.collect(last, &stamps, reason)) return false;
    for (double us : callTimesUs(g, stamps, last.calls)) p.gpuMs += us * 1e-3;
    p.calls += last.calls;
    extendSpan(last.calls);
    return true;
}

}  // namespace vkspd_tools
