import ICalendar
import OpenEventKit

/// A failure of a store command, said in one line.
package struct CommandError: Error, CustomStringConvertible {
  package let description: String
  package init(_ description: String) { self.description = description }
}

/// Runs `body`, turning the store's and the file reader's errors into one clear line.
package func failing<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as EKError {
    throw CommandError(error.localizedDescription)
  } catch let error as ICalendarParseError {
    throw CommandError(error.description)
  }
}
