import Foundation
import IdFlowFoundation

extension IdFlowContext {
    /// The Users API of the configured org, with the management credentials the configuration names.
    public func usersAPI() throws(IdFlowError) -> UsersAPI {
        UsersAPI(http: http, orgURL: try configuration.requireOrgURL(), credentials: try managementCredentials())
    }
}
