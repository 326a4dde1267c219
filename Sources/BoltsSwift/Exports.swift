// A Bolts-Swift framework built by CocoaPods or Carthage re-exported Foundation (and with it Dispatch)
// through its umbrella header, so application code often uses `Date`, `URL` or `DispatchQueue` with only
// `import BoltsSwift`; this module does the same (Dispatch separately: off Apple platforms Foundation does
// not re-export it).
@_exported import Dispatch
@_exported import Foundation
