import Foundation

/// Latitude or longitude in degrees, as CoreLocation names it.
public typealias CLLocationDegrees = Double
/// A distance in metres, as CoreLocation names it.
public typealias CLLocationDistance = Double

/// A stand-in for CoreLocation's coordinate, which Linux lacks.
public struct CLLocationCoordinate2D: Hashable, Sendable {
  public var latitude: CLLocationDegrees
  public var longitude: CLLocationDegrees

  public init() {
    latitude = 0
    longitude = 0
  }

  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// A stand-in for CoreLocation's `CLLocation`, which Linux lacks: a point on Earth, as an
/// `EKStructuredLocation.geoLocation` holds it.
open class CLLocation: NSObject, NSCopying, @unchecked Sendable {
  public let coordinate: CLLocationCoordinate2D

  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
  }

  /// The great-circle distance in metres (haversine, on a sphere of Earth's mean radius).
  open func distance(from location: CLLocation) -> CLLocationDistance {
    let radians = Double.pi / 180
    let (lat1, lat2) = (coordinate.latitude * radians, location.coordinate.latitude * radians)
    let dLat = lat2 - lat1
    let dLon = (location.coordinate.longitude - coordinate.longitude) * radians
    let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * 6_371_008.8 * atan2(a.squareRoot(), (1 - a).squareRoot())
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    (object as? CLLocation)?.coordinate == coordinate
  }

  open override var hash: Int { coordinate.hashValue }

  open override var description: String {
    "<\(coordinate.latitude),\(coordinate.longitude)>"
  }
}
