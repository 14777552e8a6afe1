#if canImport(Glibc)
import Glibc
#endif

/// The data folder (or a database file in it) the server cannot use, said so that the reader
/// knows whose it is, who the server runs as, and what to do.
struct DataDirectoryError: Error, CustomStringConvertible {
    /// What the server tried.
    enum Action {
        case create, useAsFolder, writeFolder, writeDatabase
    }

    /// Who owns a file or folder, and its permissions.
    struct Owner {
        let path: String
        let uid: uid_t
        let gid: gid_t
        let mode: mode_t

        /// `uid 0, gid 0, mode 0755`.
        var description: String {
            "uid \(uid), gid \(gid), mode 0\(String(mode & 0o7777, radix: 8))"
        }
    }

    let path: String
    let action: Action
    /// The errno of the failed call.
    let reason: Int32
    /// The owner of `path`, or of its parent folder when creating it failed.
    let owner: Owner?

    var description: String {
        let user = "uid \(getuid()), gid \(getgid())"
        let why = String(cString: strerror(reason))
        let whose = owner.map { "\($0.path) belongs to \($0.description)" } ?? "its owner cannot be read"
        switch action {
        case .create:
            return "cannot create the data folder \(path) (--data-dir): \(why); \(whose), and the server runs as \(user). "
                + "Create the folder for the server first (owned by \(getuid()):\(getgid())), or choose another --data-dir."
        case .useAsFolder:
            return "the data folder \(path) (--data-dir) is not a folder."
        case .writeFolder, .writeDatabase:
            let what = action == .writeFolder ? "the data folder" : "a database file in the data folder"
            return "cannot write to \(path) (\(what), --data-dir): \(why); \(whose), and the server runs as \(user). "
                + "Give the server write access: make it its owner (for a container's bind mount, on the host: "
                + "chown -R \(getuid()):\(getgid()) HOST_FOLDER), or run the server as the owner (docker run --user "
                + "\(owner.map { "\($0.uid):\($0.gid)" } ?? "UID:GID") …), or use a named volume, which starts with the image's /data, "
                + "owned by the server. See Docs/Operations.md, Volumes and permissions."
        }
    }
}
