import Foundation

/// A place with a title and, optionally, coordinates and a radius: where an event happens, or
/// what a location alarm watches.
open class EKStructuredLocation: EKObject, NSCopying, @unchecked Sendable {
  var values: LocationValues

  /// A location with no title yet.
  public override init() {
    values = LocationValues()
  }

  convenience init(values: LocationValues) {
    self.init()
    self.values = values
  }

  public convenience init(title: String) {
    self.init(values: LocationValues(title: title))
  }

  open var title: String? {
    get { values.title }
    set { values.title = newValue }
  }

  open var geoLocation: CLLocation? {
    get {
      guard let latitude = values.latitude, let longitude = values.longitude else { return nil }
      return CLLocation(latitude: latitude, longitude: longitude)
    }
    set {
      values.latitude = newValue?.coordinate.latitude
      values.longitude = newValue?.coordinate.longitude
    }
  }

  /// The radius in metres; 0 means the system's default.
  open var radius: Double {
    get { values.radius }
    set { values.radius = newValue }
  }

  public func copy(with zone: NSZone? = nil) -> Any { EKStructuredLocation(values: values) }

  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKStructuredLocation)?.values == values
  }

  open override var hash: Int { values.hashValue }

  open override var description: String {
    "EKStructuredLocation(title: \(values.title ?? "nil"), radius: \(values.radius))"
  }
}
