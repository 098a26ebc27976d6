import Foundation
import MCP

/// A method of `M`'s name whose params this server reads itself: params of the wrong shape
/// (`"arguments": "title=A"`, `"params": []`) are JSON-RPC's invalid params (-32602), saying
/// what the method takes, where the SDK's own decoding would answer an internal error.
enum Checked<M: Method>: Method {
  typealias Parameters = Value
  typealias Result = M.Result

  static var name: String { M.name }

  /// `value` read as `M`'s params, or invalid params naming the shape they must have.
  static func parameters(_ value: Value, shape: String) throws(MCPError) -> M.Parameters {
    do {
      let data = try JSONEncoder().encode(value)
      return try JSONDecoder().decode(M.Parameters.self, from: data)
    } catch {
      throw MCPError.invalidParams("\(M.name) takes \(shape)")
    }
  }
}
