import Foundation

/// Where OpenEventKit keeps a person's files, and how it makes them private: one place for
/// the rule, read by the store and by apps that keep data of their own beside it. An
/// OpenEventKit addition: on Apple's platforms the system decides where an app's data lives.
///
/// `$OPENEVENTKIT_HOME` names one folder for the data when set: the shared store in it, and each
/// app's data in a folder of the app's name inside it (tests and demo sessions use it to keep their
/// data apart). What is kept between sessions but is not data, a REPL's history, follows
/// `$XDG_STATE_HOME` only (``stateFolder(environment:)``). Otherwise the XDG Base Directory
/// specification applies: the folder `OpenEventKit`, or the app's name, in `$XDG_DATA_HOME` (a
/// relative value is ignored, as the specification says) or `~/.local/share`.
///
/// ```swift
/// let folder = DataLocation.appFolder("loan-scheduler")  // ~/.local/share/loan-scheduler
/// let file = folder.appendingPathComponent("loans.sqlite")
/// try DataLocation.preparePrivateFile(file, ownFolder: true)  // 0600, in a 0700 folder
/// ```
///
/// None of the folders is created by asking for it: ``preparePrivateFile(_:ownFolder:)``
/// creates a file's folder. The store's files are listed in OpenEventKit's Privacy article
/// ("Where they are kept").
///
/// A module of its own, below OpenEventKit and REPLKit, so that a REPL's history and an
/// app's own data find their folders without linking the calendar store.
package enum DataLocation {
  /// The folder of the calendar store every app shares.
  ///
  /// `$OPENEVENTKIT_HOME` when set, else `OpenEventKit` in `$XDG_DATA_HOME` (when absolute)
  /// or in `~/.local/share`. `Calendar.sqlite` and `Privacy.sqlite` are in it.
  ///
  /// ```swift
  /// let file = DataLocation.storeFolder().appendingPathComponent("Calendar.sqlite")
  /// ```
  ///
  /// - Parameter environment: The environment to read the variables from; the process's by
  ///   default (a test gives its own).
  /// - Returns: The folder, whether it exists or not.
  package static func storeFolder(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let home = openEventKitHome(environment) { return home }
    return dataHome(environment).appendingPathComponent("OpenEventKit", isDirectory: true)
  }

  /// The folder for one app's own data (its database, say), named after the app.
  ///
  /// `app` in `$OPENEVENTKIT_HOME` when set, else in `$XDG_DATA_HOME` (when absolute) or
  /// `~/.local/share`.
  ///
  /// ```swift
  /// let folder = DataLocation.appFolder("loan-scheduler")  // ~/.local/share/loan-scheduler
  /// ```
  ///
  /// - Parameters:
  ///   - app: The folder's name: the app's name, one path component.
  ///   - environment: The environment to read the variables from; the process's by default.
  /// - Returns: The folder, whether it exists or not.
  package static func appFolder(
    _ app: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    (openEventKitHome(environment) ?? dataHome(environment))
      .appendingPathComponent(app, isDirectory: true)
  }

  /// The folder for what OpenEventKit's programs keep between sessions that is not data (a
  /// REPL's history): `OpenEventKit` in `$XDG_STATE_HOME` (when absolute), else in
  /// `~/.local/state`.
  ///
  /// `$OPENEVENTKIT_HOME` does not move it.
  ///
  /// ```swift
  /// let history = DataLocation.stateFolder().appendingPathComponent("loans.history")
  /// ```
  ///
  /// - Parameter environment: The environment to read the variables from; the process's by
  ///   default.
  /// - Returns: The folder, whether it exists or not.
  package static func stateFolder(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    xdgFolder("XDG_STATE_HOME", default: ".local/state", environment)
      .appendingPathComponent("OpenEventKit", isDirectory: true)
  }

  /// Makes `file` private to the person before anything is written to it, whatever the
  /// process's umask: its folder is created with mode 0700 and the file with 0600 when
  /// missing. A file that exists with a looser mode (made by an older version, or by hand) is
  /// narrowed to 0600, and so are SQLite's `-wal` and `-shm` files beside it.
  ///
  /// An existing folder keeps its mode unless `ownFolder` says it is the data's own folder
  /// (an app's, from ``appFolder(_:environment:)``): a database may be named anywhere, and
  /// the folder it sits in may be the person's working folder, or `/tmp`.
  ///
  /// What SQLite cannot use safely is refused before SQLite sees it, with an error naming the
  /// file: a symbolic link (a dangling one would have SQLite create its target with the
  /// umask's mode, and a link's `-wal` and `-shm` files are not the target's), something that
  /// is not a file, a file the person cannot write (SQLite would open it read-only and leave a
  /// read-only `-shm` behind that breaks every later open), and a folder the person cannot
  /// write (SQLite makes its `-wal` and `-shm` files there, even to read).
  ///
  /// ```swift
  /// import GRDB
  ///
  /// let file = DataLocation.appFolder("loan-scheduler").appendingPathComponent("loans.sqlite")
  /// try DataLocation.preparePrivateFile(file, ownFolder: true)
  /// let queue = try DatabaseQueue(path: file.path)
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file to make private: a database, or any file of the person's data.
  ///   - ownFolder: Whether the file's folder is the data's own, to be narrowed to mode 0700
  ///     when it exists with a looser one.
  /// - Throws: ``DataLocationError``, with a message naming the
  ///   file, what is wrong and, where there is one, the command that fixes it: the folder cannot be
  ///   created (a file is in the way, no permission) or written; the file, or its `-wal` or `-shm`
  ///   file, is a symbolic link or not a regular file; the file is read-only; or it cannot be
  ///   created.
  package static func preparePrivateFile(_ file: URL, ownFolder: Bool = false)
    throws(DataLocationError)
  {
    let manager = FileManager.default
    let folder = file.deletingLastPathComponent()
    var isFolder: ObjCBool = false
    if manager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw DataLocationError("cannot create \(folder.path): a file of that name is in the way")
      }
      if ownFolder { narrow(folder.path, to: 0o700) }
    } else {
      do {
        try manager.createDirectory(
          at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        // Foundation's own message ("The operation could not be completed") says nothing:
        // the system's reason (a file where a folder should be, no permission) does.
        let reason = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map {
          String(cString: strerror(Int32($0.code)))
        }
        throw DataLocationError(
          "cannot create \(folder.path): \(reason ?? error.localizedDescription)")
      }
    }
    guard access(folder.path, W_OK | X_OK) == 0 else {
      throw DataLocationError(
        "cannot use \(file.path): its folder is not writable (mode \(modeText(folder.path))), "
          + "and SQLite keeps its -wal and -shm files there even to read. "
          + "To fix it: chmod u+wx \(folder.path)")
    }
    for path in [file.path + "-wal", file.path + "-shm"] {
      try refuseLink(path, of: file.path)
    }
    try refuseLink(file.path, of: file.path)
    let descriptor = open(file.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600)
    if descriptor >= 0 {
      close(descriptor)
    } else if errno == EEXIST {
      guard access(file.path, R_OK | W_OK) == 0 else {
        throw DataLocationError(
          "cannot use \(file.path): it is read-only (mode \(modeText(file.path))), and "
            + "OpenEventKit writes as it reads. To fix it: chmod 600 \(file.path)")
      }
      for path in [file.path, file.path + "-wal", file.path + "-shm"] { narrow(path, to: 0o600) }
      // A read-only -shm left by an earlier read-only open breaks every later one: the file
      // is the person's own and its content is rebuilt from the WAL, so it is made writable.
      widenOwner(file.path + "-shm")
    } else {
      throw DataLocationError("cannot create \(file.path): \(String(cString: strerror(errno)))")
    }
  }

  /// Writes `data` to `file` as a person's data: mode 0600 whatever the umask, and whole or
  /// not at all. The bytes go to a new file beside it, which then replaces `file` in one
  /// rename, so a reader never sees half a file and a failure (a full disk) leaves the old
  /// one as it was. (`ekctl export -o` writes calendars this way.)
  ///
  /// The file's folder must exist. A file there already is replaced, whatever its mode: the
  /// new one has mode 0600.
  ///
  /// ```swift
  /// let data = try store.exportICalendar()
  /// try DataLocation.writePrivately(data, to: URL(fileURLWithPath: "calendar.ics"))
  /// ```
  ///
  /// - Parameters:
  ///   - data: The bytes to write.
  ///   - file: Where to write them.
  /// - Throws: ``DataLocationError``, naming the file and the
  ///   system's reason, when the temporary file beside it cannot be created, written or flushed (a
  ///   full disk), or cannot replace `file`; `file` is left as it was then.
  package static func writePrivately(_ data: Data, to file: URL) throws(DataLocationError) {
    let temporary = file.path + ".\(getpid()).part"
    let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw DataLocationError("cannot write \(file.path): \(String(cString: strerror(errno)))")
    }
    var failure: Int32 = 0
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    close(descriptor)
    if failure == 0, rename(temporary, file.path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary)
      throw DataLocationError("cannot write \(file.path): \(String(cString: strerror(failure)))")
    }
  }

  /// Refuses `path` (the database or one of its SQLite files) when it is a symbolic link or
  /// not a regular file.
  private static func refuseLink(_ path: String, of database: String) throws(DataLocationError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      return
    case S_IFLNK:
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
      throw DataLocationError(
        "cannot use \(database): \(path) is a symbolic link (to \(target)). OpenEventKit "
          + "opens its databases only as plain files, so that a link cannot send a person's "
          + "calendar elsewhere or split it from its -wal file. Move the file itself there.")
    default:
      throw DataLocationError("cannot use \(database): \(path) is not a file")
    }
  }

  /// The permission bits of `path` in octal, as `ls` and `chmod` write them.
  private static func modeText(_ path: String) -> String {
    var status = stat()
    guard stat(path, &status) == 0 else { return "unknown" }
    return "0" + String(status.st_mode & 0o777, radix: 8)
  }

  /// Gives the owner read and write permission on `path` when the process owns it.
  private static func widenOwner(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_uid == geteuid(),
      status.st_mode & 0o600 != 0o600
    else { return }
    _ = chmod(path, (status.st_mode & 0o7777) | 0o600)
  }

  /// Takes away the permission bits beyond `mode`, where there are any, keeping the others
  /// (setgid, sticky). A file the process does not own keeps its mode (the change is
  /// refused, and opening it says what is wrong).
  private static func narrow(_ path: String, to mode: mode_t) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & 0o777 & ~mode != 0 else { return }
    _ = chmod(path, status.st_mode & 0o7777 & ~(0o777 & ~mode))
  }

  private static func openEventKitHome(_ environment: [String: String]) -> URL? {
    guard let home = environment["OPENEVENTKIT_HOME"], !home.isEmpty else { return nil }
    return URL(fileURLWithPath: home, isDirectory: true)
  }

  private static func dataHome(_ environment: [String: String]) -> URL {
    xdgFolder("XDG_DATA_HOME", default: ".local/share", environment)
  }

  /// An XDG base folder: the variable when it is an absolute path (the specification ignores
  /// relative ones), else `fallback` in the home folder (an empty `HOME` is ignored: it would
  /// put the files in the working folder).
  private static func xdgFolder(
    _ variable: String, default fallback: String, _ environment: [String: String]
  ) -> URL {
    if let folder = environment[variable], folder.hasPrefix("/") {
      return URL(fileURLWithPath: folder, isDirectory: true)
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(fallback, isDirectory: true)
  }
}
