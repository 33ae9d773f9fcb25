// Output files that appear whole or not at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

// Creates `dir` and its missing parents. On failure returns false with `reason` set. When
// `created` is given, the folders this call created are appended to it, parents first.
bool makeDirectories(const std::string& dir, std::string* reason, std::vector<std::string>* created = nullptr);

// Whether makeDirectories(dir) could succeed, checked without creating anything: every existing
// part of the path is a folder and the deepest one is writable. On failure returns false with
// `reason` set as makeDirectories would ("a-file/sub: cannot create folder: Not a directory").
bool canCreateFolder(const std::string& dir, std::string* reason);

// The files of one input: each is written to a temporary in its folder, and the set is renamed
// into place by commit(). If any write fails, or commit() is never called, the destructor removes
// every temporary and every folder makeFolder() created, so a failed or interrupted input leaves
// none of its new files or folders behind.
//
// A temporary is created new (O_CREAT | O_EXCL | O_NOFOLLOW) under a random name
// (".NAME.vkspd-tmp-XXXXXXXXXXXX"): nothing that already exists, a symbolic link planted at a
// predictable name included, is ever opened or written through. rename() then replaces whatever
// is at the final name; a link there is replaced by the file, its target is left alone.
class OutputSet {
public:
    OutputSet() = default;
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;
    ~OutputSet();

    // Creates `dir` and its missing parents (makeDirectories), remembering the folders it created
    // so that they are removed again (if empty) when the set is not committed.
    bool makeFolder(const std::string& dir, std::string* reason);

    // Writes `bytes` to a temporary next to `path`. On failure returns false with `reason` set
    // ("PATH: No space left on device").
    bool add(const std::string& path, const std::vector<uint8_t>& bytes, std::string* reason);

    // Renames every temporary to its final name. On failure returns false with `reason` set and
    // removes what it had renamed and the remaining temporaries.
    bool commit(std::string* reason);

    // Final paths, in the order they were added.
    const std::vector<std::string>& paths() const { return finals_; }

private:
    void rollback();
    std::vector<std::string> temporaries_, finals_, folders_;
    bool committed_ = false;
};

// Writes one file the same way (temporary, then rename).
bool writeFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes, std::string* reason);

// The name an input's output folder and KTX2 file take: `path` without its folders and its last
// extension ("a/b/photo.jpg" -> "photo"), made safe to name an entry inside the output folder:
// "." and ".." become "_" and "__", control characters '_', an empty stem "image", and a stem over
// kMaxStemBytes is cut there (at a UTF-8 character boundary).
std::string fileStem(const std::string& path);
constexpr size_t kMaxStemBytes = 200;  // leaves room for "-NNN.ktx2" in a 255-byte file name

}  // namespace vkspd_cli
