#include "output_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace vkspd_cli {

namespace {

// `s` cut to at most `bytes` bytes, not inside a UTF-8 character.
std::string cutUtf8(const std::string& s, size_t bytes) {
    if (s.size() <= bytes) return s;
    size_t end = bytes;
    while (end > 0 && (uint8_t(s[end]) & 0xC0) == 0x80) --end;  // s[end] continues a character
    return s.substr(0, end);
}

std::string temporaryFor(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    return dir + "." + name + ".vkspd-tmp-" + std::to_string(getpid());
}

bool writeAll(const std::string& path, const std::vector<uint8_t>& bytes, std::string* reason) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        *reason = path + ": " + std::strerror(errno);
        return false;
    }
    bool ok = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    int err = ok ? 0 : errno;
    if (std::fflush(f) != 0 && ok) ok = false, err = errno;
    if (std::fclose(f) != 0 && ok) ok = false, err = errno;
    if (!ok) {
        *reason = path + ": " + std::strerror(err ? err : EIO);
        std::remove(path.c_str());
    }
    return ok;
}

}  // namespace

bool makeDirectories(const std::string& dir, std::string* reason) {
    if (dir.empty()) return true;
    std::string partial;
    size_t pos = 0;
    while (pos != std::string::npos) {
        pos = dir.find('/', pos + 1);
        partial = dir.substr(0, pos);
        if (partial.empty()) continue;
        if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
            *reason = partial + ": cannot create folder: " + std::strerror(errno);
            return false;
        }
    }
    struct stat st;
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        *reason = dir + ": not a folder";
        return false;
    }
    return true;
}

OutputSet::~OutputSet() {
    if (!committed_) rollback();
}

void OutputSet::rollback() {
    for (const std::string& t : temporaries_) std::remove(t.c_str());
    temporaries_.clear();
    finals_.clear();
}

bool OutputSet::add(const std::string& path, const std::vector<uint8_t>& bytes, std::string* reason) {
    const std::string tmp = temporaryFor(path);
    if (!writeAll(tmp, bytes, reason)) {
        *reason = path + reason->substr(tmp.size());  // name the file the user asked for
        rollback();
        return false;
    }
    temporaries_.push_back(tmp);
    finals_.push_back(path);
    return true;
}

bool OutputSet::commit(std::string* reason) {
    for (size_t i = 0; i < temporaries_.size(); ++i) {
        if (std::rename(temporaries_[i].c_str(), finals_[i].c_str()) != 0) {
            *reason = finals_[i] + ": " + std::strerror(errno);
            for (size_t k = 0; k < i; ++k) std::remove(finals_[k].c_str());
            rollback();
            return false;
        }
    }
    temporaries_.clear();
    committed_ = true;
    return true;
}

bool writeFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes, std::string* reason) {
    OutputSet set;
    return set.add(path, bytes, reason) && set.commit(reason);
}

std::string fileStem(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const size_t dot = name.find_last_of('.');
    if (dot != std::string::npos && dot > 0) name = name.substr(0, dot);
    if (name.empty()) return "image";
    if (name == ".") return "_";
    if (name == "..") return "__";
    for (char& c : name)
        if (uint8_t(c) < 0x20 || c == 0x7F) c = '_';
    return cutUtf8(name, kMaxStemBytes);
}

}  // namespace vkspd_cli
