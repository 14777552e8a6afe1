#if canImport(Glibc)
import Glibc
#endif

/// The folder holding the database, checked before SQLite opens it: a folder the server cannot
/// write (a root-owned bind mount, say) is reported with its owner, the server's own uid and
/// what to do, where SQLite would only say "unable to open database file".
struct DataDirectory {
    let path: String

    /// The database file and the files SQLite keeps beside it in WAL mode.
    var databaseFiles: [String] { ["scrollstack.sqlite", "scrollstack.sqlite-wal", "scrollstack.sqlite-shm"].map { path + "/" + $0 } }

    /// Creates the folder and its missing parents (mode 0755), then checks that the server can
    /// create files in it and read and write the database files already there.
    func prepare() throws(DataDirectoryError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var parent = path.hasPrefix("/") ? "/" : "."
        for end in parts.indices where !parts[end].isEmpty {
            let folder = parts[...end].joined(separator: "/")
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw DataDirectoryError(path: folder, action: .create, reason: errno, owner: Self.owner(of: parent))
            }
            parent = folder
        }
        guard let folder = Self.owner(of: path), folder.mode & S_IFMT == S_IFDIR else {
            throw DataDirectoryError(path: path, action: .useAsFolder, reason: ENOTDIR, owner: Self.owner(of: path))
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw DataDirectoryError(path: path, action: .writeFolder, reason: errno, owner: folder)
        }
        for file in databaseFiles where access(file, F_OK) == 0 {
            guard access(file, R_OK | W_OK) == 0 else {
                throw DataDirectoryError(path: file, action: .writeDatabase, reason: errno, owner: Self.owner(of: file))
            }
        }
    }

    /// The owner and mode of `path`, or nil when it cannot be examined.
    static func owner(of path: String) -> DataDirectoryError.Owner? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return DataDirectoryError.Owner(path: path, uid: info.st_uid, gid: info.st_gid, mode: info.st_mode)
    }
}
