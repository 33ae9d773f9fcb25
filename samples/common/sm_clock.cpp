#include "sm_clock.hpp"

#include <cstdio>
#include <dlfcn.h>

namespace vkspd_tools {

namespace {

// NVML's declarations (nvml.h), written out so that nothing is needed at build time: its return
// code is an enum of which 0 is NVML_SUCCESS, a device is an opaque pointer.
using NvmlInit = int (*)();
using NvmlDeviceByIndex = int (*)(unsigned int, void**);
using NvmlDeviceByBusId = int (*)(const char*, void**);
using NvmlDeviceCount = int (*)(unsigned int*);
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM

}  // namespace

std::string nvmlBusId(const PciAddress& a) {
    char text[32];
    std::snprintf(text, sizeof text, "%08x:%02x:%02x.%x", a.domain, a.bus, a.device, a.function);
    return text;
}

SmClock::~SmClock() {
    if (initialized_ && shutdown_) shutdown_();
    if (library_) dlclose(library_);
}

bool SmClock::open(uint32_t vendorId, const PciAddress& address, const char* library) {
    library_ = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!library_) {
        note_ = "no NVML";
        return false;
    }
    if (vendorId != kNvidiaVendorId) {
        note_ = "not an NVIDIA device";
        return false;
    }
    auto init = reinterpret_cast<NvmlInit>(dlsym(library_, "nvmlInit_v2"));
    auto byIndex = reinterpret_cast<NvmlDeviceByIndex>(dlsym(library_, "nvmlDeviceGetHandleByIndex_v2"));
    auto byBusId = reinterpret_cast<NvmlDeviceByBusId>(dlsym(library_, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto count = reinterpret_cast<NvmlDeviceCount>(dlsym(library_, "nvmlDeviceGetCount_v2"));
    getClock_ = reinterpret_cast<GetClock>(dlsym(library_, "nvmlDeviceGetClockInfo"));
    shutdown_ = reinterpret_cast<Shutdown>(dlsym(library_, "nvmlShutdown"));
    if (!init || !byIndex || !byBusId || !count || !getClock_ || !shutdown_) {
        note_ = "NVML lacks a function it needs";
        return false;
    }
    if (int r = init(); r != 0) {
        note_ = "NVML did not start (nvmlInit_v2 returned " + std::to_string(r) + ")";
        return false;
    }
    initialized_ = true;
    void* device = nullptr;
    if (address.known) {
        const std::string id = nvmlBusId(address);
        if (int r = byBusId(id.c_str(), &device); r != 0) {
            // A virtual machine may show NVML another PCI address than Vulkan: with one device
            // there is no doubt which it is.
            unsigned int devices = 0;
            if (count(&devices) != 0 || devices != 1 || byIndex(0, &device) != 0) {
                note_ = "NVML has no device at PCI " + id + " (returned " + std::to_string(r) + ")";
                return false;
            }
            note_ = "NVML has no device at PCI " + id + "; its only device read";
        }
    } else {
        if (int r = byIndex(0, &device); r != 0) {
            note_ = "NVML has no device 0 (returned " + std::to_string(r) + ")";
            return false;
        }
        note_ = "NVML device 0: the Vulkan device's PCI address is unknown (no VK_EXT_pci_bus_info)";
    }
    unsigned int mhz = 0;
    if (int r = getClock_(device, kNvmlClockSm, &mhz); r != 0) {
        note_ = "NVML cannot read the SM clock (returned " + std::to_string(r) + ")";
        return false;
    }
    device_ = device;
    return true;
}

uint32_t SmClock::readMhz() const {
    unsigned int mhz = 0;
    if (!device_ || getClock_(device_, kNvmlClockSm, &mhz) != 0) return 0;
    return mhz;
}

std::string SmClock::text() const {
    const uint32_t mhz = readMhz();
    return mhz ? std::to_string(mhz) + " MHz" : "?";
}

}  // namespace vkspd_tools
