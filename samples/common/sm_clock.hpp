// The SM clock of an NVIDIA GPU, read through NVML where the driver installed it. NVML is loaded
// at run time (dlopen of libnvidia-ml.so.1), so nothing is needed at build time and a machine
// without it (lavapipe, another vendor) only gets a note saying why there is no clock.
#pragma once

#include <cstdint>
#include <string>

namespace vkspd_tools {

// A device's PCI address (VK_EXT_pci_bus_info), where known.
struct PciAddress {
    bool known = false;
    uint32_t domain = 0, bus = 0, device = 0, function = 0;
};

// NVML's bus id text for `a`: "00000000:65:00.0".
std::string nvmlBusId(const PciAddress& a);

constexpr uint32_t kNvidiaVendorId = 0x10DE;

class SmClock {
public:
    SmClock() = default;
    SmClock(const SmClock&) = delete;
    SmClock& operator=(const SmClock&) = delete;
    ~SmClock();

    // Loads NVML from `library` and finds the device of `vendorId` at `address` (NVML's device 0
    // where the address is unknown, or where NVML has no device there but only one device:
    // note() says so). Returns whether a clock can be read; if not,
    // note() says why ("no NVML" where the library does not load, else "not an NVIDIA device", ...). Call once.
    bool open(uint32_t vendorId, const PciAddress& address, const char* library = "libnvidia-ml.so.1");

    bool available() const { return device_ != nullptr; }

    // Why there is no clock, or a caveat on the one there is; empty when none.
    const std::string& note() const { return note_; }

    // The current SM clock in MHz; 0 when it cannot be read.
    uint32_t readMhz() const;

    // "1980 MHz", or "?" when it cannot be read.
    std::string text() const;

private:
    void* library_ = nullptr;
    void* device_ = nullptr;  // nvmlDevice_t
    bool initialized_ = false;
    using GetClock = int (*)(void*, int, unsigned int*);
    using Shutdown = int (*)();
    GetClock getClock_ = nullptr;
    Shutdown shutdown_ = nullptr;
    std::string note_;
};

}  // namespace vkspd_tools
