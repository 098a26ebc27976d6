import OpenEventKit

/// What a store call came to, as the probes print it: "ok", "error CODE" for an `EKError`,
/// "error TYPE" for any other error.
func outcome(_ body: () throws -> Void) -> String {
  do {
    try body()
    return "ok"
  } catch let error as EKError {
    return "error \(error.code.rawValue)"
  } catch {
    return "error \(type(of: error))"
  }
}
