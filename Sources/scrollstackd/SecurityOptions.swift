import ArgumentParser
import ScrollStackService

/// `scrollstackd`'s options for who may call: access tokens, the origins browsers may call
/// from, and the host names the `Host` header may give.
struct SecurityOptions: ParsableArguments {
    @Option(help: "A file of access tokens, one 'TOKEN read' or 'TOKEN write' per line; then every /v1 request needs Authorization: Bearer TOKEN. Once given (even empty), the server starts only with at least one valid token.")
    var tokenFile: String?

    @Option(help: "An access token and its scope, 'TOKEN read' or 'TOKEN write' (repeatable; added to --token-file's). Meant for SCROLLSTACK_TOKENS='TOKEN write,TOKEN read' in containers: on a command line, other users of the machine can read it.")
    var tokens: [String] = []

    @Option(help: "An origin browsers may call the API from (repeatable): scheme://host[:port], null (sandboxed plug-in frames), loopback (http(s) on localhost, 127.0.0.0/8 or [::1], any port) or '*' (every origin). Default: null and loopback without tokens; '*' with tokens.")
    var corsOrigin: [String] = []

    @Option(help: "A host name the Host header may give besides IP addresses and localhost (repeatable; '*' for any). Refuses other names with 421 against DNS rebinding. Default: any name with tokens; only IP addresses and localhost without them.")
    var allowedHost: [String] = []

    func validate() throws {
        if !corsOrigin.isEmpty { _ = try CORSPolicy(origins: corsOrigin) }
        _ = try HostPolicy(names: allowedHost)
    }
}
