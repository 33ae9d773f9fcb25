// A stand-in for libnvidia-ml.so.1 with the five functions SmClock calls, so that the NVML path
// is tested on machines without an NVIDIA GPU: one device at PCI 00000000:65:00.0 whose SM clock
// reads 1980 MHz, which is also device 0 by index but then reads 345 MHz (so a test can tell which
// lookup found it). It reports VKSPD_FAKE_NVML_DEVICES devices (default 1). Every call but
// nvmlInit_v2 fails before nvmlInit_v2.
#include <cstdlib>
#include <cstring>

namespace {
int initialized = 0;
int byBus = 0, byIndex = 0;  // the two handles
}  // namespace

extern "C" {

int nvmlInit_v2() {
    initialized = 1;
    return 0;
}

int nvmlShutdown() {
    if (!initialized) return 1;  // NVML_ERROR_UNINITIALIZED
    initialized = 0;
    return 0;
}

int nvmlDeviceGetCount_v2(unsigned int* count) {
    if (!initialized) return 1;
    const char* devices = std::getenv("VKSPD_FAKE_NVML_DEVICES");
    *count = devices ? unsigned(std::atoi(devices)) : 1u;
    return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
    if (!initialized) return 1;
    if (index != 0) return 2;  // NVML_ERROR_INVALID_ARGUMENT
    *device = &byIndex;
    return 0;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* busId, void** device) {
    if (!initialized) return 1;
    if (std::strcmp(busId, "00000000:65:00.0") != 0) return 6;  // NVML_ERROR_NOT_FOUND
    *device = &byBus;
    return 0;
}

int nvmlDeviceGetClockInfo(void* device, int type, unsigned int* clock) {
    if (!initialized) return 1;
    if (type != 1) return 2;  // only NVML_CLOCK_SM
    *clock = device == &byBus ? 1980 : 345;
    return 0;
}

}  // extern "C"
