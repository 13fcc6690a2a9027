import Hummingbird
import JWTKit
public enum SandboxInfo {}
