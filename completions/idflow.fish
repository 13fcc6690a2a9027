# The configuration options of the commands named here
# (added by idflow: they are hidden from each command's help, and ArgumentParser completes no hidden option).
set -g __idflow_configured_commands 'idflow register' 'idflow activate' 'idflow set-password' 'idflow password change' 'idflow password reset' 'idflow user get' 'idflow user unlock' 'idflow user suspend' 'idflow user unsuspend' 'idflow user expire-password' 'idflow user reset-password' 'idflow login-pkce' 'idflow login-direct' 'idflow login-device' 'idflow login-client' 'idflow login-sso' 'idflow web-sso' 'idflow login-jwt-bearer' 'idflow refresh' 'idflow api' 'idflow token get' 'idflow token inspect' 'idflow token verify' 'idflow token introspect' 'idflow token revoke' 'idflow token exchange' 'idflow userinfo' 'idflow logout' 'idflow enroll create' 'idflow enroll list' 'idflow enroll update' 'idflow enroll delete' 'idflow challenges' 'idflow resolve' 'idflow totp' 'idflow passkey list' 'idflow passkey show' 'idflow passkey delete' 'idflow doctor'
set -g __idflow_configuration_specs 'org-url=' 'api-token-file=' 'issuer=' 'client-id=' 'redirect-uri=' 'scope=' 'profile=' 'state-dir=' 'v/verbose' 'curl' 'curl-file=' 'q/quiet' 'timeout=' 'max-retries=' 'ca-file=' 'client-cert=' 'client-key=' 'proxy=' 'authorization-mode=' 'service-client-id=' 'service-scopes=' 'private-key-file=' 'private-key-id=' 'dpop' 'pretty' 'compact'

function __idflow_should_offer_configuration_options
    set -l non_repeating_flags_or_options $argv
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __idflow_parse_tokens
    contains -- "$commands" $__idflow_configured_commands; and return $non_repeating_flags_or_options_absent
    return 1
end


function __idflow_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __idflow_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __idflow_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __idflow_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __idflow_parse_tokens -S
    set -l unparsed_tokens (__idflow_tokens -pc)
    switch $unparsed_tokens[1]
    case 'idflow'
        __idflow_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'register'
            __idflow_parse_subcommand 0 'email=' 'first-name=' 'last-name=' 'login=' 'attr=+' 'idp=' 'init-data=' 'data=' 'data-stdin' 'transaction-id=' 'cancel' 'token-server=' 'embedded' 'answer=+' 'resume=' 'remediation=' 'totp-secret-file=' 'enroll-now' 'consent' 'passkey' 'passkey-pin-file=' 'attestation=' 'aaguid=' 'no-store' 'client-secret-file=' 'batch=' 'format=' 'concurrency=' 'activate' 'skip-existing' 'summary-json' 'version' 'h/help' $__idflow_configuration_specs
        case 'activate'
            __idflow_parse_subcommand 0 'user=' 'send-email' 'reactivate' 'version' 'h/help' $__idflow_configuration_specs
        case 'set-password'
            __idflow_parse_subcommand 0 'activation-token=' 'activation-token-file=' 'activation-url=' 'activation-url-file=' 'activation-url-stdin' 'password-stdin' 'password-file=' 'password=' 'version' 'h/help' $__idflow_configuration_specs
        case 'password'
            __idflow_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'change'
                __idflow_parse_subcommand 0 'password-stdin' 'password-file=' 'password=' 'new-password-stdin' 'new-password-file=' 'version' 'h/help' $__idflow_configuration_specs
            case 'reset'
                __idflow_parse_subcommand 0 'username=' 'otp-stdin' 'totp-secret-file=' 'oob=' 'binding-code-stdin' 'new-password-stdin' 'new-password-file=' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
            end
        case 'user'
            __idflow_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'get'
                __idflow_parse_subcommand 1 'version' 'h/help' $__idflow_configuration_specs
            case 'unlock'
                __idflow_parse_subcommand 1 'version' 'h/help' $__idflow_configuration_specs
            case 'suspend'
                __idflow_parse_subcommand 1 'version' 'h/help' $__idflow_configuration_specs
            case 'unsuspend'
                __idflow_parse_subcommand 1 'version' 'h/help' $__idflow_configuration_specs
            case 'expire-password'
                __idflow_parse_subcommand 1 'temp-password' 'version' 'h/help' $__idflow_configuration_specs
            case 'reset-password'
                __idflow_parse_subcommand 1 'send-email' 'version' 'h/help' $__idflow_configuration_specs
            end
        case 'login-pkce'
            __idflow_parse_subcommand 0 'session-token=' 'session-token-stdin' 'username=' 'password-stdin' 'password-file=' 'password=' 'browser' 'port=' 'browser-timeout=' 'manual' 'embedded' 'answer=+' 'resume=' 'remediation=' 'totp-secret-file=' 'enroll-now' 'consent' 'recover' 'unlock' 'new-password-stdin' 'new-password-file=' 'passkey' 'passkey-pin-file=' 'attestation=' 'aaguid=' 'mfa=' 'mfa-timeout=' 'no-store' 'device-sso' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'login-direct'
            __idflow_parse_subcommand 0 'username=' 'resume=' 'otp-stdin' 'totp-secret-file=' 'oob=' 'binding-code-stdin' 'password-stdin' 'password-file=' 'mfa=' 'webauthn' 'passkey-pin-file=' 'attestation=' 'aaguid=' 'acr-values=' 'no-store' 'device-sso' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'login-device'
            __idflow_parse_subcommand 0 'open' 'device-timeout=' 'device-sso' 'no-store' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'login-client'
            __idflow_parse_subcommand 0 'no-store' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'login-sso'
            __idflow_parse_subcommand 0 'from=' 'audience=' 'no-store' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'web-sso'
            __idflow_parse_subcommand 0 'open' 'version' 'h/help' $__idflow_configuration_specs
        case 'login-jwt-bearer'
            __idflow_parse_subcommand 0 'assertion-file=' 'sign-with=' 'key-id=' 'sub=' 'aud=' 'no-store' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'refresh'
            __idflow_parse_subcommand 0 'refresh-token-stdin' 'no-store' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'api'
            __idflow_parse_subcommand 1 'X/method=' 'H/header=+' 'data=' 'i/include' 'raw' 'no-refresh' 'version' 'h/help' $__idflow_configuration_specs
        case 'token'
            __idflow_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'get'
                __idflow_parse_subcommand 0 'min-ttl=' 'output=' 'token-type=' 'version' 'h/help' $__idflow_configuration_specs
            case 'inspect'
                __idflow_parse_subcommand 1 'type=' 'offline' 'version' 'h/help' $__idflow_configuration_specs
            case 'verify'
                __idflow_parse_subcommand 1 'type=' 'audience=' 'version' 'h/help' $__idflow_configuration_specs
            case 'introspect'
                __idflow_parse_subcommand 1 'type=' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
            case 'revoke'
                __idflow_parse_subcommand 1 'type=' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
            case 'exchange'
                __idflow_parse_subcommand 0 'subject-token-file=' 'subject-from=' 'subject-token-type=' 'actor-token-file=' 'actor-token-type=' 'audience=' 'resource=+' 'requested-token-type=' 'store-as=' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
            end
        case 'userinfo'
            __idflow_parse_subcommand 0 'access-token-stdin' 'version' 'h/help' $__idflow_configuration_specs
        case 'logout'
            __idflow_parse_subcommand 0 'local' 'client-secret-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'enroll'
            __idflow_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __idflow_parse_subcommand 0 'access-token-stdin' 'push-token=' 'user-verification' 'name=' 'totp-secret-file=' 'pin-stdin' 'pin-file=' 'version' 'h/help' $__idflow_configuration_specs
            case 'list'
                __idflow_parse_subcommand 0 'check' 'version' 'h/help' $__idflow_configuration_specs
            case 'update'
                __idflow_parse_subcommand 1 'push-token=' 'user-verification=' 'access-token-stdin' 'pin-stdin' 'pin-file=' 'version' 'h/help' $__idflow_configuration_specs
            case 'delete'
                __idflow_parse_subcommand 1 'local-only' 'access-token-stdin' 'version' 'h/help' $__idflow_configuration_specs
            end
        case 'challenges'
            __idflow_parse_subcommand 0 'enrollment=' 'wait=' 'version' 'h/help' $__idflow_configuration_specs
        case 'resolve'
            __idflow_parse_subcommand 0 'transaction-id=' 'next' 'approve' 'deny' 'user-verification' 'enrollment=' 'number=' 'pin-stdin' 'pin-file=' 'version' 'h/help' $__idflow_configuration_specs
        case 'totp'
            __idflow_parse_subcommand 0 'secret-file=' 'secret-stdin' 'version' 'h/help' $__idflow_configuration_specs
        case 'passkey'
            __idflow_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __idflow_parse_subcommand 0 'version' 'h/help' $__idflow_configuration_specs
            case 'show'
                __idflow_parse_subcommand 1 'version' 'h/help' $__idflow_configuration_specs
            case 'delete'
                __idflow_parse_subcommand 1 'version' 'h/help' $__idflow_configuration_specs
            end
        case 'sandbox'
            __idflow_parse_subcommand 0 'host=' 'port=' 'api-token=' 'config=' 'env' 'tls' 'tls-cert=' 'tls-key=' 'tls-client-ca=' 'version' 'h/help'
        case 'demo'
            __idflow_parse_subcommand 0 'verbose' 'tls' 'version' 'h/help'
        case 'doctor'
            __idflow_parse_subcommand 0 'offline' 'version' 'h/help' $__idflow_configuration_specs
        case 'completion'
            __idflow_parse_subcommand 1 'version' 'h/help'
        case 'help'
            __idflow_parse_subcommand -r 1 'version'
        end
    end
end

function __idflow_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __idflow_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __idflow_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __idflow_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__idflow_tokens -p)
    if test -z "$(__idflow_tokens -t)"
        set -l index (count (__idflow_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'idflow' -f
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'register' -d 'Create users (STAGED); sign up via --idp, --embedded.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'activate' -d 'Activate a STAGED user; print its activation link.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'set-password' -d 'Set a new user\'s first password; get a session token.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'password' -d 'Change or recover a password (the MyAccount API).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'user' -d 'Get a user; unlock, suspend, expire, reset a password.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'login-pkce' -d 'Log in (authorization code + PKCE); save the tokens.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'login-direct' -d 'Log in without a browser (Okta Direct Authentication).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'login-device' -d 'Log in without a browser (device grant, RFC 8628).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'login-client' -d 'Get a client\'s own token (client credentials).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'login-sso' -d 'Log in another app from a stored sign-in (Native SSO).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'web-sso' -d 'Print a link that signs a browser in to a web app.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'login-jwt-bearer' -d 'Log in with a signed assertion (JWT bearer, RFC 7523).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'refresh' -d 'Refresh the stored tokens (the rotated one saved).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'api' -d 'Call your API with the profile\'s access token.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'token' -d 'Get a token; inspect, verify, revoke, exchange one.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'userinfo' -d 'Fetch the OIDC userinfo claims of an access token.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'logout' -d 'Revoke the profile\'s tokens and clear its store.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'enroll' -d 'Make this machine a push authenticator; manage it.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'challenges' -d 'List the push challenges pending for this machine.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'resolve' -d 'Approve or deny a pending push challenge.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'totp' -d 'Print the current TOTP code of a kept seed.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'passkey' -d 'List, show, delete kept passkeys.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'sandbox' -d 'Run a local, in-memory, Okta-compatible server.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'demo' -d 'Run the whole chain on an embedded sandbox.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'doctor' -d 'Check the configuration, the org, keys, clock, state.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'completion' -d 'Print the shell completion script (bash, zsh, fish).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" email' -l 'email' -d 'The user\'s e-mail address (the login by default).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" first-name' -l 'first-name' -d 'The user\'s first name.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" last-name' -l 'last-name' -d 'The user\'s last name.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" login' -l 'login' -d 'The login (e-mail form); default: the e-mail address.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register"' -l 'attr' -d 'An extra profile attribute, key=value; repeatable.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" idp' -l 'idp' -d 'Register through this custom identity provider.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" init-data' -l 'init-data' -d 'The init step\'s data: text, @FILE or - (two-step).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" data' -l 'data' -d 'The complete step\'s data: text, @FILE or - (stdin).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" data-stdin' -l 'data-stdin' -d 'Read the complete step\'s data from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" transaction-id' -l 'transaction-id' -d 'Continue a registration stopped by exit 10.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" cancel' -l 'cancel' -d 'With --transaction-id: forget that registration.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" token-server' -l 'token-server' -d 'The Token Server\'s URL (env IDFLOW_TOKEN_SERVER).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" embedded' -l 'embedded' -d 'Sign up via the Identity Engine\'s forms (--answer).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register"' -l 'answer' -d 'With --embedded: name=value (=@FILE, =@-); repeatable.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" resume' -l 'resume' -d 'With --embedded: continue a stopped sign-in.' -rfka '(__idflow_custom_completion ---completion register -- --resume (count (__idflow_tokens -pc)) (__idflow_tokens -tC))'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" remediation' -l 'remediation' -d 'With --embedded: take this remediation once (resend).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" totp-secret-file' -l 'totp-secret-file' -d 'With --embedded: keep an enrolled TOTP seed (0600).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" enroll-now' -l 'enroll-now' -d 'With --embedded: enroll, not skip, in a grace period.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" consent' -l 'consent' -d 'With --embedded: grant the consent the app asks for.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" passkey' -l 'passkey' -d 'With --embedded: enroll a passkey.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" passkey-pin-file' -l 'passkey-pin-file' -d 'Read the passkey PIN from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" attestation' -l 'attestation' -d 'A new passkey\'s attestation.' -rfka 'none packed'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" aaguid' -l 'aaguid' -d 'The AAGUID a new passkey reports.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" no-store' -l 'no-store' -d 'With --embedded: print the tokens, save nothing.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" batch' -l 'batch' -d 'Create a user per line of this file (- for stdin).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" format' -l 'format' -d 'The --batch input\'s format; default: by its name.' -rfka 'ndjson csv'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" concurrency' -l 'concurrency' -d 'Requests in flight with --batch (1 to 64, default 4).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" activate' -l 'activate' -d 'With --batch: activate each user (PROVISIONED).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" skip-existing' -l 'skip-existing' -d 'With --batch: report existing logins as skipped.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" summary-json' -l 'summary-json' -d 'With --batch: end stderr with a JSON summary line.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow register" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow activate" user' -l 'user' -d 'The user\'s id (00u...) or login.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow activate" send-email' -l 'send-email' -d 'Let the server e-mail the activation link instead of printing it.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow activate" reactivate' -l 'reactivate' -d 'A new activation token for a PROVISIONED user; the old one stops working.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow activate" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow activate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" activation-token' -l 'activation-token' -d 'The activation token (visible in `ps`; prefer the file or env).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" activation-token-file' -l 'activation-token-file' -d 'A file holding the activation token.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" activation-url' -l 'activation-url' -d 'The activation link, either form (visible in `ps`; prefer the file or stdin).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" activation-url-file' -l 'activation-url-file' -d 'A file holding the activation link.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" activation-url-stdin' -l 'activation-url-stdin' -d 'Read the activation link from standard input.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" password-stdin' -l 'password-stdin' -d 'Read the password from stdin (one newline dropped).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" password-file' -l 'password-file' -d 'Read the password from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" password' -l 'password' -d 'The password (visible in `ps`); or IDFLOW_PASSWORD.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow set-password" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow password" -eq 1' -fa 'change' -d 'Change the signed-in user\'s password, giving the old one.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow password" -eq 1' -fa 'reset' -d 'Recover a forgotten password with a factor other than the password.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password change" password-stdin' -l 'password-stdin' -d 'Read the password from stdin (one newline dropped).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password change" password-file' -l 'password-file' -d 'Read the password from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password change" password' -l 'password' -d 'The password (visible in `ps`); or IDFLOW_PASSWORD.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password change" new-password-stdin' -l 'new-password-stdin' -d 'Read the new password (expired, --recover) from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password change" new-password-file' -l 'new-password-file' -d 'Read the new password from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password change" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password change" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" username' -l 'username' -d 'The user\'s login (login_hint).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" otp-stdin' -l 'otp-stdin' -d 'Read the one-time code from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" totp-secret-file' -l 'totp-secret-file' -d 'Compute the code from this kept TOTP seed, each once.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" oob' -l 'oob' -d 'Answer out of band through this channel.' -rfka 'push sms voice'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" binding-code-stdin' -l 'binding-code-stdin' -d 'Read the SMS or voice code from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" new-password-stdin' -l 'new-password-stdin' -d 'Read the new password (expired, --recover) from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" new-password-file' -l 'new-password-file' -d 'Read the new password from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow password reset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow user" -eq 1' -fa 'get' -d 'Print the user object.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow user" -eq 1' -fa 'unlock' -d 'Unlock a LOCKED_OUT user (ACTIVE again, same password).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow user" -eq 1' -fa 'suspend' -d 'Suspend an ACTIVE user: sign-in is refused until unsuspend.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow user" -eq 1' -fa 'unsuspend' -d 'Lift a suspension (ACTIVE again).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow user" -eq 1' -fa 'expire-password' -d 'Expire the user\'s password (PASSWORD_EXPIRED): the next sign-in must choose a new one.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow user" -eq 1' -fa 'reset-password' -d 'Start a password reset (RECOVERY) and print the one-time reset link, or let the org e-mail it.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user get" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user unlock" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user unlock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user suspend" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user suspend" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user unsuspend" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user unsuspend" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user expire-password" temp-password' -l 'temp-password' -d 'Set and print a temporary password (expire_password_with_temp_password).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user expire-password" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user expire-password" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user reset-password" send-email' -l 'send-email' -d 'Let the org e-mail the reset link instead of printing it.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user reset-password" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow user reset-password" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" session-token' -l 'session-token' -d 'An Okta session token (single use); visible in `ps`.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" session-token-stdin' -l 'session-token-stdin' -d 'Read the session token from standard input.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" username' -l 'username' -d 'Sign in as this user (Okta primary authentication).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" password-stdin' -l 'password-stdin' -d 'Read the password from stdin (one newline dropped).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" password-file' -l 'password-file' -d 'Read the password from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" password' -l 'password' -d 'The password (visible in `ps`); or IDFLOW_PASSWORD.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" browser' -l 'browser' -d 'Sign in in a browser, redirected to 127.0.0.1.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" port' -l 'port' -d 'The loopback port for --browser; default: the redirect URI\'s, else any free one.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" browser-timeout' -l 'browser-timeout' -d 'Seconds to wait for it (exit 9 after).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" manual' -l 'manual' -d 'Print the URL; read the redirect URL (or code) back.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" embedded' -l 'embedded' -d 'Answer the Identity Engine\'s sign-in forms (--answer).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce"' -l 'answer' -d 'With --embedded: name=value (=@FILE, =@-); repeatable.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" resume' -l 'resume' -d 'With --embedded: continue a stopped sign-in.' -rfka '(__idflow_custom_completion ---completion login-pkce -- --resume (count (__idflow_tokens -pc)) (__idflow_tokens -tC))'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" remediation' -l 'remediation' -d 'With --embedded: take this remediation once (resend).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" totp-secret-file' -l 'totp-secret-file' -d 'With --embedded: keep an enrolled TOTP seed (0600).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" enroll-now' -l 'enroll-now' -d 'With --embedded: enroll, not skip, in a grace period.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" consent' -l 'consent' -d 'With --embedded: grant the consent the app asks for.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" recover' -l 'recover' -d 'With --embedded: reset a forgotten password.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" unlock' -l 'unlock' -d 'With --embedded: unlock a locked-out account, sign in.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" new-password-stdin' -l 'new-password-stdin' -d 'Read the new password (expired, --recover) from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" new-password-file' -l 'new-password-file' -d 'Read the new password from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" passkey' -l 'passkey' -d 'With --embedded: enroll or sign in with a passkey.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" passkey-pin-file' -l 'passkey-pin-file' -d 'Read the passkey PIN from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" attestation' -l 'attestation' -d 'A new passkey\'s attestation.' -rfka 'none packed'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" aaguid' -l 'aaguid' -d 'The AAGUID a new passkey reports.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" mfa' -l 'mfa' -d 'With --username: answer MFA this way.' -rfka 'push'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" mfa-timeout' -l 'mfa-timeout' -d 'Seconds a push may take (exit 9 after).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" no-store' -l 'no-store' -d 'Print the tokens without saving them.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" device-sso' -l 'device-sso' -d 'Also get and keep a device secret (Native SSO), for login-sso.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-pkce" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" username' -l 'username' -d 'The user\'s login (login_hint).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" resume' -l 'resume' -d 'Finish an SMS or voice sign-in a script stopped (its "transaction").' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" otp-stdin' -l 'otp-stdin' -d 'Read the one-time code from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" totp-secret-file' -l 'totp-secret-file' -d 'Compute the code from this kept TOTP seed, each once.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" oob' -l 'oob' -d 'Answer out of band through this channel.' -rfka 'push sms voice'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" binding-code-stdin' -l 'binding-code-stdin' -d 'Read the SMS or voice code from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" password-stdin' -l 'password-stdin' -d 'Sign in with a password read from stdin.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" password-file' -l 'password-file' -d 'Sign in with a password read from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" mfa' -l 'mfa' -d 'After a password: the second factor to answer.' -rfka 'otp push sms voice webauthn'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" passkey webauthn' -l 'webauthn' -l 'passkey' -d 'Sign in with a passkey kept here.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" passkey-pin-file' -l 'passkey-pin-file' -d 'Read the passkey PIN from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" attestation' -l 'attestation' -d 'A new passkey\'s attestation.' -rfka 'none packed'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" aaguid' -l 'aaguid' -d 'The AAGUID a new passkey reports.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" acr-values' -l 'acr-values' -d 'Authentication context classes to ask for (space-separated).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" no-store' -l 'no-store' -d 'Print the tokens without saving them.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" device-sso' -l 'device-sso' -d 'Also get and keep a device secret (Native SSO), for login-sso.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-direct" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-device" open' -l 'open' -d 'Also open the verification link with $BROWSER or xdg-open.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-device" device-timeout' -l 'device-timeout' -d 'Seconds to wait for the approval; default: the code\'s life.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-device" device-sso' -l 'device-sso' -d 'Also get and keep a device secret (Native SSO), for login-sso.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-device" no-store' -l 'no-store' -d 'Print the tokens without saving them.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-device" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-device" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-device" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-client" no-store' -l 'no-store' -d 'Print the token without saving it.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-client" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-client" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-client" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-sso" from' -l 'from' -d 'The profile whose login holds the device secret.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-sso" audience' -l 'audience' -d 'The audience; default: the server\'s (api://default).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-sso" no-store' -l 'no-store' -d 'Print the tokens without saving them.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-sso" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-sso" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-sso" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow web-sso" open' -l 'open' -d 'Also open the link with $BROWSER or xdg-open.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow web-sso" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow web-sso" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" assertion-file' -l 'assertion-file' -d 'A signed assertion, in a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" sign-with' -l 'sign-with' -d 'Mint the assertion with this PEM key.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" key-id' -l 'key-id' -d 'The kid of --sign-with\'s key.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" sub' -l 'sub' -d 'The minted assertion\'s subject (a user).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" aud' -l 'aud' -d 'The minted assertion\'s audience.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" no-store' -l 'no-store' -d 'Print the tokens without saving them.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow login-jwt-bearer" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow refresh" refresh-token-stdin' -l 'refresh-token-stdin' -d 'Refresh a token read from stdin; the store is not used.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow refresh" no-store' -l 'no-store' -d 'Print without saving (a rotated token is then lost to the store).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow refresh" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow refresh" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow refresh" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api" X method' -s 'X' -l 'method' -d 'The HTTP method; default GET, or POST with --data.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api"' -s 'H' -l 'header' -d 'A request header, `Name: value`; repeatable. Not Authorization or DPoP.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api" data' -l 'data' -d 'The body: JSON, @FILE, or @- for stdin (application/json unless -H Content-Type says otherwise).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api" i include' -l 'include' -s 'i' -d 'Print {"status", "headers", "body"} rather than the body alone.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api" raw' -l 'raw' -d 'Print a body that is not JSON as it came.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api" no-refresh' -l 'no-refresh' -d 'No refresh before, no retry after a 401.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow api" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow token" -eq 1' -fa 'get' -d 'Print the profile\'s token for a script or kubectl, refreshed first when it expires within --min-ttl.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow token" -eq 1' -fa 'inspect' -d 'Decode a JWT\'s header and claims and say when it expires. Never checks the signature (see `token verify`).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow token" -eq 1' -fa 'verify' -d 'Check a JWT\'s signature against the issuer\'s JWKS, its iss and expiry (and aud with --audience); exit 13 when it fails.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow token" -eq 1' -fa 'introspect' -d 'Ask the authorization server whether a token is active (RFC 7662).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow token" -eq 1' -fa 'revoke' -d 'Revoke a token (RFC 7009); revoking a refresh token ends its whole family on Okta.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow token" -eq 1' -fa 'exchange' -d 'Trade a token for another (token exchange, RFC 8693).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token get" min-ttl' -l 'min-ttl' -d 'Refresh first when the token expires within this many seconds.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token get" output' -l 'output' -d 'json, or exec-credential for kubectl.' -rfka 'json exec-credential'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token get" token-type' -l 'token-type' -d 'Which token: id or access (default: access for json, id for exec-credential); never refresh.' -rfka 'access refresh id'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token get" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token get" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token inspect" type' -l 'type' -d 'Which stored token to use when none is given: access (the default), refresh or id. A refresh token that is not a JWT (Okta\'s are opaque) is described, not decoded.' -rfka 'access refresh id'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token inspect" offline' -l 'offline' -d 'Do not ask the issuer for its clock: this machine\'s only.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token inspect" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token inspect" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token verify" type' -l 'type' -d 'Which stored token to use when none is given: access (the default), refresh or id.' -rfka 'access refresh id'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token verify" audience' -l 'audience' -d 'Require this audience (e.g. api://default for an Okta access token, the client id for an ID token).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token verify" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token verify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token introspect" type' -l 'type' -d 'Which token it is (and which stored one to use): access (the default), refresh or id.' -rfka 'access refresh id'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token introspect" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token introspect" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token introspect" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token revoke" type' -l 'type' -d 'Which token it is (and which stored one to use): access or refresh (the default).' -rfka 'access refresh id'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token revoke" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token revoke" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token revoke" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" subject-token-file' -l 'subject-token-file' -d 'The subject token, in a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" subject-from' -l 'subject-from' -d 'A stored login\'s token: PROFILE[:access|id|refresh].' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" subject-token-type' -l 'subject-token-type' -d 'The subject token\'s type.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" actor-token-file' -l 'actor-token-file' -d 'An actor token, in a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" actor-token-type' -l 'actor-token-type' -d 'The actor token\'s type.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" audience' -l 'audience' -d 'Where the token will be used (logical name).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange"' -l 'resource' -d 'Where the token will be used (URI; repeatable).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" requested-token-type' -l 'requested-token-type' -d 'The type of token wanted.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" store-as' -l 'store-as' -d 'Save the result for this profile.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow token exchange" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow userinfo" access-token-stdin' -l 'access-token-stdin' -d 'Read the access token from standard input instead of the store.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow userinfo" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow userinfo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow logout" local' -l 'local' -d 'Clear the stored login even when the server refuses to revoke it (the refusal is reported).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow logout" client-secret-file' -l 'client-secret-file' -d 'A confidential client\'s secret, in a file (env IDFLOW_CLIENT_SECRET_FILE).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow logout" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow enroll" -eq 1' -fa 'create' -d 'Enroll this machine as a push authenticator (the default of `enroll`).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow enroll" -eq 1' -fa 'list' -d 'List the push enrollments kept on this machine (of the configured org, else of every org).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow enroll" -eq 1' -fa 'update' -d 'Change an enrollment\'s push token, or switch its user-verification key on or off.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow enroll" -eq 1' -fa 'delete' -d 'Delete an enrollment on the server and forget it (and its keys) here.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" access-token-stdin' -l 'access-token-stdin' -d 'Read the user\'s access token from stdin instead of the profile\'s.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" push-token' -l 'push-token' -d 'The push (APNs) device token as hex; default none (challenges are fetched).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" user-verification' -l 'user-verification' -d 'Also enroll a user-verification key, sealed under a PIN (6 characters or more).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" name' -l 'name' -d 'The device\'s display name; default: the host name.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" totp-secret-file' -l 'totp-secret-file' -d 'Keep the seed of its TOTP method (Okta Verify\'s code) in this new 0600 file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" pin-stdin' -l 'pin-stdin' -d 'Read the user-verification PIN from stdin (or env IDFLOW_PIN).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" pin-file' -l 'pin-file' -d 'Read the PIN from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll list" check' -l 'check' -d 'Ask the server whether each enrollment still works.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll list" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow enroll update" -eq 1' -fka '(__idflow_custom_completion ---completion enroll update -- positional@0 (count (__idflow_tokens -pc)) (__idflow_tokens -tC))'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll update" push-token' -l 'push-token' -d 'A new push (APNs) device token as hex.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll update" user-verification' -l 'user-verification' -d 'Switch the user-verification key on or off.' -rfka 'on off'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll update" access-token-stdin' -l 'access-token-stdin' -d 'Read the user\'s access token from stdin instead of the profile\'s.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll update" pin-stdin' -l 'pin-stdin' -d 'Read the user-verification PIN from stdin (or env IDFLOW_PIN).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll update" pin-file' -l 'pin-file' -d 'Read the PIN from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll update" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll update" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow enroll delete" -eq 1' -fka '(__idflow_custom_completion ---completion enroll delete -- positional@0 (count (__idflow_tokens -pc)) (__idflow_tokens -tC))'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll delete" local-only' -l 'local-only' -d 'Forget the enrollment on this machine only; the server keeps it.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll delete" access-token-stdin' -l 'access-token-stdin' -d 'Read the user\'s access token from stdin instead of the profile\'s.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll delete" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow enroll delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow challenges" enrollment' -l 'enrollment' -d 'Only this enrollment\'s challenges.' -rfka '(__idflow_custom_completion ---completion challenges -- --enrollment (count (__idflow_tokens -pc)) (__idflow_tokens -tC))'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow challenges" wait' -l 'wait' -d 'Wait up to this long for at least one challenge (exit 9 if none comes).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow challenges" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow challenges" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" transaction-id' -l 'transaction-id' -d 'The challenge\'s transactionId.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" next' -l 'next' -d 'Answer the oldest pending challenge.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" approve' -l 'approve' -d 'Approve the sign-in.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" deny' -l 'deny' -d 'Deny the sign-in.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" user-verification' -l 'user-verification' -d 'Sign with the user-verification key (the PIN) even when not asked.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" enrollment' -l 'enrollment' -d 'Only look at this enrollment\'s challenges.' -rfka '(__idflow_custom_completion ---completion resolve -- --enrollment (count (__idflow_tokens -pc)) (__idflow_tokens -tC))'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" number' -l 'number' -d 'The number the sign-in shows, for a number challenge.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" pin-stdin' -l 'pin-stdin' -d 'Read the user-verification PIN from stdin (or env IDFLOW_PIN).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" pin-file' -l 'pin-file' -d 'Read the PIN from a file.' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow resolve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow totp" secret-file' -l 'secret-file' -d 'The seed file an enrollment wrote (Base32, mode 0600).' -rF
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow totp" secret-stdin' -l 'secret-stdin' -d 'Read the Base32 seed from standard input.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow totp" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow totp" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow passkey" -eq 1' -fa 'list' -d 'List the kept passkeys.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow passkey" -eq 1' -fa 'show' -d 'Show one kept passkey.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow passkey" -eq 1' -fa 'delete' -d 'Forget a kept passkey.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey list" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey show" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey delete" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow passkey delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" host' -l 'host' -d 'The address to listen on; anyone who can connect can use the sandbox.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" port' -l 'port' -d 'The port; 0 picks a free one (printed in orgUrl).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" api-token' -l 'api-token' -d 'This management API token instead of a random one.' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" config' -l 'config' -d 'A JSON configuration file; see docs/sandbox.md.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" env' -l 'env' -d 'Print `export NAME=\'value\'` lines (OKTA_CLIENT_ORGURL, ...) instead of the JSON line, written at once.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" tls' -l 'tls' -d 'Serve https only, with a CA made at start (its file printed as caFile, IDFLOW_CA_FILE).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" tls-cert' -l 'tls-cert' -d 'With --tls: this PEM chain (leaf first) instead of a generated one.' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" tls-key' -l 'tls-key' -d 'With --tls: the PEM private key of --tls-cert.' -rfa '(set -l exts \'pem\' \'key\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" tls-client-ca' -l 'tls-client-ca' -d 'With --tls: require, on every route, a client certificate signed by a CA in this PEM file (mutual TLS).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow sandbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow demo" verbose' -l 'verbose' -d 'Trace HTTP on stderr, every secret redacted.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow demo" tls' -l 'tls' -d 'Run every step over https: the sandbox serves a certificate from a CA generated for the run.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow demo" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow doctor" offline' -l 'offline' -d 'Skip the checks that need the network (org, discovery, JWKS, clock, credentials).'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow doctor" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow completion" -eq 1' -fka 'bash zsh fish'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow completion" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow completion" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_flags_or_options "idflow help" version' -l 'version' -d 'Show the version.'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options org-url' -l 'org-url' -d 'The Okta org, e.g. https://dev-123.okta.com (env OKTA_CLIENT_ORGURL).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options api-token-file' -l 'api-token-file' -d 'A file holding the management API token, sent as `SSWS` (env OKTA_CLIENT_TOKEN holds the token itself).' -rF
complete -c 'idflow' -n '__idflow_should_offer_configuration_options issuer' -l 'issuer' -d 'The authorization server; default {org}/oauth2/default (env IDFLOW_ISSUER, or Okta\'s OKTA_OAUTH2_ISSUER).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options client-id' -l 'client-id' -d 'The OAuth client (native app) id (env IDFLOW_CLIENT_ID, or Okta\'s OKTA_OAUTH2_CLIENTID).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options redirect-uri' -l 'redirect-uri' -d 'The registered redirect URI (env IDFLOW_REDIRECT_URI, or Okta\'s OKTA_OAUTH2_REDIRECTURI).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options scope' -l 'scope' -d 'OAuth scopes; default "openid profile email offline_access" (env IDFLOW_SCOPE).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options profile' -l 'profile' -d 'A named profile in $XDG_CONFIG_HOME/idflow/config.yaml; default `default` (env IDFLOW_PROFILE).' -rfka '(__idflow_custom_completion ---completion register -- --profile (count (__idflow_tokens -pc)) (__idflow_tokens -tC))'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options state-dir' -l 'state-dir' -d 'Where tokens and device keys live; default $XDG_STATE_HOME/idflow (env IDFLOW_STATE_DIR).' -rfa '(__idflow_complete_directories)'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options v verbose' -l 'verbose' -s 'v' -d 'Trace HTTP on stderr, every secret redacted (env IDFLOW_VERBOSE=1).'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options curl' -l 'curl' -d 'Also print each request on stderr as a curl command, secrets as variables (env IDFLOW_CURL=1).'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options curl-file' -l 'curl-file' -d 'Write the curl commands to this file (0600) instead.' -rF
complete -c 'idflow' -n '__idflow_should_offer_configuration_options q quiet' -l 'quiet' -s 'q' -d 'No headlines or progress on stderr; errors, prompts and what you must act on still show (env IDFLOW_QUIET=1).'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options timeout' -l 'timeout' -d 'Per-request timeout in seconds; default 30 (env IDFLOW_TIMEOUT).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options max-retries' -l 'max-retries' -d 'Retries for 429, 503 and network errors on safe requests; default 3 (env IDFLOW_MAX_RETRIES).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options ca-file' -l 'ca-file' -d 'Trust this PEM bundle\'s CAs besides the system\'s (env IDFLOW_CA_FILE); verification is never off.' -rF
complete -c 'idflow' -n '__idflow_should_offer_configuration_options client-cert' -l 'client-cert' -d 'Present this PEM TLS client certificate (mutual TLS).' -rF
complete -c 'idflow' -n '__idflow_should_offer_configuration_options client-key' -l 'client-key' -d 'The client certificate\'s PEM private key, refused when others can read it (env IDFLOW_CLIENT_KEY).' -rF
complete -c 'idflow' -n '__idflow_should_offer_configuration_options proxy' -l 'proxy' -d 'Reach every server through this proxy (CONNECT); "" for none (env HTTPS_PROXY).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options authorization-mode' -l 'authorization-mode' -d 'How management calls authenticate: SSWS (the API token, default) or PrivateKey (a service app).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options service-client-id' -l 'service-client-id' -d 'The service app\'s client id in PrivateKey mode (env OKTA_CLIENT_CLIENTID).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options service-scopes' -l 'service-scopes' -d 'The service app\'s scopes; default "okta.users.read okta.users.manage".' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options private-key-file' -l 'private-key-file' -d 'The service app\'s PEM private key (RS256 or ES256), refused when others can read it.' -rF
complete -c 'idflow' -n '__idflow_should_offer_configuration_options private-key-id' -l 'private-key-id' -d 'The key id (kid) put in the client assertion\'s header (env OKTA_CLIENT_KID).' -rfka ''
complete -c 'idflow' -n '__idflow_should_offer_configuration_options dpop' -l 'dpop' -d 'DPoP-bind the tokens this command gets (RFC 9449); each request then carries a proof.'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options pretty' -l 'pretty' -d 'Pretty-print the JSON on stdout (the default on a terminal).'
complete -c 'idflow' -n '__idflow_should_offer_configuration_options compact' -l 'compact' -d 'Print the JSON on stdout on one line (the default in a pipe).'
# The subcommand names after `idflow help` (added by idflow: the help command of ArgumentParser completes none).
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow help" -eq 1' -fa 'register activate set-password password user login-pkce login-direct login-device login-client login-sso web-sso login-jwt-bearer refresh api token userinfo logout enroll challenges resolve totp passkey sandbox demo doctor completion'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow help" -eq 2; and test (commandline -opc)[-1] = password' -fa 'change reset'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow help" -eq 2; and test (commandline -opc)[-1] = user' -fa 'get unlock suspend unsuspend expire-password reset-password'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow help" -eq 2; and test (commandline -opc)[-1] = token' -fa 'get inspect verify introspect revoke exchange'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow help" -eq 2; and test (commandline -opc)[-1] = enroll' -fa 'create list update delete'
complete -c 'idflow' -n '__idflow_should_offer_completions_for_positional "idflow help" -eq 2; and test (commandline -opc)[-1] = passkey' -fa 'list show delete'
