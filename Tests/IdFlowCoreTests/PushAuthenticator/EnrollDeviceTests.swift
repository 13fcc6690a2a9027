import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `EnrollDevice` against the fake push org: what it sends the org, and what it keeps on this machine.
@Suite struct EnrollDeviceTests {
    let configuration: Configuration = {
        var configuration = TestContext.configuration(org: FakePushOrg.org)
        configuration.clientID = "0oaclient"
        return configuration
    }()
    var folder: URL { configuration.stateDirectory.appendingPathComponent("devices/o.example.com") }

    func enroll(_ transport: RoutedTransport) async throws(IdFlowError) -> EnrollmentOutput {
        let context = TestContext.make(transport: transport, configuration: configuration, stdin: "user-at\n")
        return try await EnrollDevice(accessTokenFromStandardInput: true, name: "ci-runner-7").run(context)
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func enrollingSendsThePublicKeysAndKeepsDeviceKeysAndEnrollmentPrivately() async throws {
        let org = FakePushOrg()
        let output = try await enroll(org.transport)

        #expect(output.enrollmentId == "pfd1")
        #expect(output.userId == "00u1")
        #expect(output.deviceId == "guo1")
        #expect(output.methodEnrollmentId == "opf-pfd1")
        #expect(output.userVerification == false)
        #expect(output.orgUrl == FakePushOrg.org)

        let post = try #require(org.transport.requests.first { $0.route == "POST /idp/myaccount/app-authenticators" })
        #expect(post.header("Authorization") == "Bearer user-at")
        let body = try #require(post.jsonBody)
        #expect(body["authenticatorId"] == "aut1")
        #expect(body["device"]?["displayName"] == "ci-runner-7")
        let sentInstanceKey = try #require(body["device"]?["clientInstanceKey"])
        let sentPoPKey = try #require(body["methods"]?["push"]?["keys"]?["proofOfPossession"])
        #expect(sentInstanceKey["d"] == nil && sentPoPKey["d"] == nil, "only public halves leave the machine")

        let stored = try DeviceStore(stateDirectory: configuration.stateDirectory).org(URL(string: FakePushOrg.org)!)
        let identity = try #require(try stored.identity())
        #expect(identity.deviceId == "guo1")
        #expect(identity.clientInstanceId == "cli1")
        let record = try #require(try stored.enrollment("pfd1"))
        #expect(record.userId == "00u1")
        #expect(record.pendingUrl == "\(FakePushOrg.org)/idp/myaccount/app-authenticators/pfd1/push/notifications")
        // The keys sent are the public halves of the keys kept, under the ids the records name.
        #expect(try stored.silentKey(identity.clientInstanceKeyId, role: .clientInstance).publicJWK == sentInstanceKey)
        #expect(try stored.silentKey(record.proofOfPossessionKeyId, role: .proofOfPossession).publicJWK == sentPoPKey)

        for file in [
            "device.json", "enrollments/pfd1.json", "keys/\(identity.clientInstanceKeyId).json",
            "keys/\(record.proofOfPossessionKeyId).json",
        ] {
            #expect(try mode(folder.appendingPathComponent(file)) == 0o600, "\(file)")
        }
        #expect(try mode(folder.appendingPathComponent("keys")) == 0o700)
    }

    @Test func anEnrollEndpointOffTheOrgIsRefusedAndNothingIsSentThere() async throws {
        let org = FakePushOrg()
        let transport = RoutedTransport { request in
            guard request.route == "GET /.well-known/app-authenticator-configuration" else { return org.transport.answer(request) }
            return .json(
                200,
                """
                [{"authenticatorId":"aut1","orgId":"00o1","key":"custom_app","name":"idflow push","settings":{},
                "supportedMethods":[{"type":"push","status":"ACTIVE","settings":{"algorithms":["ES256"],"transactionTypes":["LOGIN"]}}],
                "appAuthenticatorEnrollEndpoint":"https://collector.example.net/idp/myaccount/app-authenticators"}]
                """)
        }
        let error = await failure { () throws(IdFlowError) in try await enroll(transport) }

        #expect(error?.exitStatus == .security)
        #expect(error?.exitStatus.rawValue == 13)
        #expect(error?.message.contains("collector.example.net") == true)
        #expect(!transport.requests.contains { $0.url.host == "collector.example.net" })
        #expect(!transport.requests.contains { $0.method == "POST" })
        let enrollments = folder.appendingPathComponent("enrollments")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: enrollments.path))?.isEmpty ?? true)
    }

    @Test func aStoredDeviceTheOrgNoLongerKnowsIsForgottenAndEnrolledOnceAsANewDevice() async throws {
        let org = FakePushOrg()
        _ = try await enroll(org.transport)
        let stored = try DeviceStore(stateDirectory: configuration.stateDirectory).org(URL(string: FakePushOrg.org)!)
        let first = try #require(try stored.identity())

        // The org has deleted the device: an enrollment that names it is 410 E0000153 (devices.md §2b, §8).
        let transport = RoutedTransport { request in
            if request.route == "POST /idp/myaccount/app-authenticators", request.jsonBody?["device"]?["id"] != nil {
                return .json(
                    410,
                    #"{"errorCode":"E0000153","errorSummary":"The device was deleted","errorLink":"E0000153","errorId":"oae1"}"#)
            }
            return org.transport.answer(request)
        }
        let output = try await enroll(transport)

        let posts = transport.requests.filter { $0.route == "POST /idp/myaccount/app-authenticators" }
        #expect(posts.count == 2, "one enrollment as the stored device, then exactly one as a new device")
        #expect(posts.first?.jsonBody?["device"]?["id"] == .string(first.deviceId ?? ""))
        #expect(posts.last?.jsonBody?["device"]?["id"] == nil)
        #expect(output.enrollmentId == "pfd2", "the org's second enrollment")
        #expect(try stored.enrollment("pfd2")?.deviceId == output.deviceId)
        let second = try #require(try stored.identity())
        #expect(second.clientInstanceKeyId != first.clientInstanceKeyId, "the new device has a new client-instance key")
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("keys/\(first.clientInstanceKeyId).json").path),
            "the forgotten device's key is gone")
    }

    @Test func aNewDeviceTheOrgRefusesIsNotRetried() async throws {
        let org = FakePushOrg()
        let transport = RoutedTransport { request in
            if request.route == "POST /idp/myaccount/app-authenticators" {
                return .json(
                    410,
                    #"{"errorCode":"E0000153","errorSummary":"The device was deleted","errorLink":"E0000153","errorId":"oae1"}"#)
            }
            return org.transport.answer(request)
        }
        let error = await failure { () throws(IdFlowError) in try await enroll(transport) }

        #expect(error?.exitStatus == .rejected, "a 410 is the server refusing the request (exit 3)")
        #expect(transport.requests.filter { $0.route == "POST /idp/myaccount/app-authenticators" }.count == 1)
        let keys = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("keys").path)) ?? []
        #expect(keys.isEmpty, "the keys made for the refused enrollment are removed: \(keys)")
    }
}
