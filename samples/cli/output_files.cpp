#include "output_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/random.h>
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

// Twelve random characters of [a-z0-9] (60 bits): a temporary's name cannot be guessed.
std::string randomSuffix() {
    static const char kDigits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    uint8_t bytes[12];
    if (getrandom(bytes, sizeof bytes, 0) != ssize_t(sizeof bytes)) {
        std::random_device device;
        for (uint8_t& b : bytes) b = uint8_t(device());
    }
    std::string s;
    for (uint8_t b : bytes) s += kDigits[b % 36];
    return s;
}

// Creates a new temporary next to `path` (never an existing file or link) and writes `bytes` to
// it. Returns its name, or "" with `error` set to the errno of the failure.
std::string writeTemporary(const std::string& path, const std::vector<uint8_t>& bytes, int* error) {
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    // The final name, cut so that the temporary's name stays within 255 bytes.
    const std::string name = cutUtf8(slash == std::string::npos ? path : path.substr(slash + 1), 200);
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        tmp = dir + "." + name + ".vkspd-tmp-" + randomSuffix();
        fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        *error = errno;
        return "";
    }
    int err = 0;
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            break;
        }
        done += size_t(n);
    }
    if (close(fd) != 0 && !err && errno != EINTR) err = errno;
    if (err) {
        *error = err;
        unlink(tmp.c_str());
        return "";
    }
    return tmp;
}

}  // namespace

bool makeDirectories(const std::string& dir, std::string* reason, std::vector<std::string>* created) {
    if (dir.empty()) return true;
    std::string partial;
    size_t pos = 0;
    while (pos != std::string::npos) {
        pos = dir.find('/', pos + 1);
        partial = dir.substr(0, pos);
        if (partial.empty()) continue;
        if (mkdir(partial.c_str(), 0755) == 0) {
            if (created) created->push_back(partial);
        } else if (errno != EEXIST) {
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

bool canCreateFolder(const std::string& dir, std::string* reason) {
    if (dir.empty()) return true;
    std::string parent = dir[0] == '/' ? "/" : ".", partial;
    size_t pos = 0;
    while (pos != std::string::npos) {
        pos = dir.find('/', pos + 1);
        partial = dir.substr(0, pos);
        if (partial.empty()) continue;
        struct stat st;
        if (stat(partial.c_str(), &st) == 0) {
            parent = partial;
            continue;
        }
        // The first part that does not exist: it can be made where its parent is a writable folder.
        if (errno == ENOENT && access(parent.c_str(), W_OK | X_OK) == 0) return true;
        *reason = partial + ": cannot create folder: " + std::strerror(errno);
        return false;
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
    for (const std::string& t : temporaries_) unlink(t.c_str());
    temporaries_.clear();
    finals_.clear();
    // Deepest first; a folder something else was put in meanwhile is not empty and stays.
    for (auto f = folders_.rbegin(); f != folders_.rend(); ++f) rmdir(f->c_str());
    folders_.clear();
}

bool OutputSet::makeFolder(const std::string& dir, std::string* reason) {
    return makeDirectories(dir, reason, &folders_);
}

bool OutputSet::add(const std::string& path, const std::vector<uint8_t>& bytes, std::string* reason) {
    int error = 0;
    const std::string tmp = writeTemporary(path, bytes, &error);
    if (tmp.empty()) {
        *reason = path + ": " + std::strerror(error);  // the file asked for, not its temporary
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
            for (size_t k = 0; k < i; ++k) unlink(finals_[k].c_str());
            rollback();
            return false;
        }
    }
    temporaries_.clear();
    folders_.clear();
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
