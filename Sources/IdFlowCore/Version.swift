import JWTKit
import Yams
import Crypto
public enum IdFlowVersion { public static let string = "0.1.0" }
