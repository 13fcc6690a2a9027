#!/bin/bash

__idflow_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__idflow_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__idflow_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__idflow_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

# The configuration options of every command whose function calls __idflow_configuration_values
# (added by idflow: they are hidden from each command's help, and ArgumentParser completes no hidden option).
__idflow_configuration_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact)
__idflow_configuration_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)

# Completes the value of a configuration option; the arguments are the command's path, for ---completion.
__idflow_configuration_values() {
    case "${prev}" in
    '--org-url')
        return 0
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return 0
        ;;
    '--issuer')
        return 0
        ;;
    '--client-id')
        return 0
        ;;
    '--redirect-uri')
        return 0
        ;;
    '--scope')
        return 0
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion "${@}" -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return 0
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return 0
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return 0
        ;;
    '--timeout')
        return 0
        ;;
    '--max-retries')
        return 0
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return 0
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return 0
        ;;
    '--client-key')
        __idflow_add_completions -f
        return 0
        ;;
    '--proxy')
        return 0
        ;;
    '--authorization-mode')
        return 0
        ;;
    '--service-client-id')
        return 0
        ;;
    '--service-scopes')
        return 0
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return 0
        ;;
    '--private-key-id')
        return 0
        ;;
    esac
    return 1
}

_idflow() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __idflow_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    register|activate|set-password|password|user|login-pkce|login-direct|login-device|login-client|login-sso|web-sso|login-jwt-bearer|refresh|api|token|userinfo|logout|enroll|challenges|resolve|totp|passkey|sandbox|demo|doctor|completion|help)
        # Offer subcommand argument completions
        "_idflow_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'register activate set-password password user login-pkce login-direct login-device login-client login-sso web-sso login-jwt-bearer refresh api token userinfo logout enroll challenges resolve totp passkey sandbox demo doctor completion help' -- "${cur}"))
        ;;
    esac
}

_idflow_register() {
    repeating_flags=()
    non_repeating_flags=(--data-stdin --cancel --embedded --enroll-now --consent --passkey --no-store --activate --skip-existing --summary-json --version -h --help)
    repeating_options=(--attr --answer)
    non_repeating_options=(--email --first-name --last-name --login --idp --init-data --data --transaction-id --token-server --resume --remediation --totp-secret-file --passkey-pin-file --attestation --aaguid --client-secret-file --batch --format --concurrency)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'register' && return

    # Offer option value completions
    case "${prev}" in
    '--email')
        return
        ;;
    '--first-name')
        return
        ;;
    '--last-name')
        return
        ;;
    '--login')
        return
        ;;
    '--attr')
        return
        ;;
    '--idp')
        return
        ;;
    '--init-data')
        return
        ;;
    '--data')
        return
        ;;
    '--transaction-id')
        return
        ;;
    '--token-server')
        return
        ;;
    '--answer')
        return
        ;;
    '--resume')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion register -- --resume "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--remediation')
        return
        ;;
    '--totp-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--passkey-pin-file')
        __idflow_add_completions -f
        return
        ;;
    '--attestation')
        __idflow_add_completions -W 'none'$'\n''packed'
        return
        ;;
    '--aaguid')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--batch')
        __idflow_add_completions -f
        return
        ;;
    '--format')
        __idflow_add_completions -W 'ndjson'$'\n''csv'
        return
        ;;
    '--concurrency')
        return
        ;;
    esac
}

_idflow_activate() {
    repeating_flags=()
    non_repeating_flags=(--send-email --reactivate --version -h --help)
    repeating_options=()
    non_repeating_options=(--user)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'activate' && return

    # Offer option value completions
    case "${prev}" in
    '--user')
        return
        ;;
    esac
}

_idflow_set-password() {
    repeating_flags=()
    non_repeating_flags=(--activation-url-stdin --password-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--activation-token --activation-token-file --activation-url --activation-url-file --password-file --password)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'set-password' && return

    # Offer option value completions
    case "${prev}" in
    '--activation-token')
        return
        ;;
    '--activation-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--activation-url')
        return
        ;;
    '--activation-url-file')
        __idflow_add_completions -f
        return
        ;;
    '--password-file')
        __idflow_add_completions -f
        return
        ;;
    '--password')
        return
        ;;
    esac
}

_idflow_password() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    change|reset)
        # Offer subcommand argument completions
        "_idflow_password_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'change reset' -- "${cur}"))
        ;;
    esac
}

_idflow_password_change() {
    repeating_flags=()
    non_repeating_flags=(--password-stdin --new-password-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--password-file --password --new-password-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'password' 'change' && return

    # Offer option value completions
    case "${prev}" in
    '--password-file')
        __idflow_add_completions -f
        return
        ;;
    '--password')
        return
        ;;
    '--new-password-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_password_reset() {
    repeating_flags=()
    non_repeating_flags=(--otp-stdin --binding-code-stdin --new-password-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--username --totp-secret-file --oob --new-password-file --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'password' 'reset' && return

    # Offer option value completions
    case "${prev}" in
    '--username')
        return
        ;;
    '--totp-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--oob')
        __idflow_add_completions -W 'push'$'\n''sms'$'\n''voice'
        return
        ;;
    '--new-password-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_user() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    get|unlock|suspend|unsuspend|expire-password|reset-password)
        # Offer subcommand argument completions
        "_idflow_user_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'get unlock suspend unsuspend expire-password reset-password' -- "${cur}"))
        ;;
    esac
}

_idflow_user_get() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'user' 'get' && return
}

_idflow_user_unlock() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'user' 'unlock' && return
}

_idflow_user_suspend() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'user' 'suspend' && return
}

_idflow_user_unsuspend() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'user' 'unsuspend' && return
}

_idflow_user_expire-password() {
    repeating_flags=()
    non_repeating_flags=(--temp-password --version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'user' 'expire-password' && return
}

_idflow_user_reset-password() {
    repeating_flags=()
    non_repeating_flags=(--send-email --version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'user' 'reset-password' && return
}

_idflow_login-pkce() {
    repeating_flags=()
    non_repeating_flags=(--session-token-stdin --password-stdin --browser --manual --embedded --enroll-now --consent --recover --unlock --new-password-stdin --passkey --no-store --device-sso --version -h --help)
    repeating_options=(--answer)
    non_repeating_options=(--session-token --username --password-file --password --port --browser-timeout --resume --remediation --totp-secret-file --new-password-file --passkey-pin-file --attestation --aaguid --mfa --mfa-timeout --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'login-pkce' && return

    # Offer option value completions
    case "${prev}" in
    '--session-token')
        return
        ;;
    '--username')
        return
        ;;
    '--password-file')
        __idflow_add_completions -f
        return
        ;;
    '--password')
        return
        ;;
    '--port')
        return
        ;;
    '--browser-timeout')
        return
        ;;
    '--answer')
        return
        ;;
    '--resume')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion login-pkce -- --resume "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--remediation')
        return
        ;;
    '--totp-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--new-password-file')
        __idflow_add_completions -f
        return
        ;;
    '--passkey-pin-file')
        __idflow_add_completions -f
        return
        ;;
    '--attestation')
        __idflow_add_completions -W 'none'$'\n''packed'
        return
        ;;
    '--aaguid')
        return
        ;;
    '--mfa')
        __idflow_add_completions -W 'push'
        return
        ;;
    '--mfa-timeout')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_login-direct() {
    repeating_flags=()
    non_repeating_flags=(--otp-stdin --binding-code-stdin --password-stdin --webauthn --passkey --no-store --device-sso --version -h --help)
    repeating_options=()
    non_repeating_options=(--username --resume --totp-secret-file --oob --password-file --mfa --passkey-pin-file --attestation --aaguid --acr-values --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'login-direct' && return

    # Offer option value completions
    case "${prev}" in
    '--username')
        return
        ;;
    '--resume')
        return
        ;;
    '--totp-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--oob')
        __idflow_add_completions -W 'push'$'\n''sms'$'\n''voice'
        return
        ;;
    '--password-file')
        __idflow_add_completions -f
        return
        ;;
    '--mfa')
        __idflow_add_completions -W 'otp'$'\n''push'$'\n''sms'$'\n''voice'$'\n''webauthn'
        return
        ;;
    '--passkey-pin-file')
        __idflow_add_completions -f
        return
        ;;
    '--attestation')
        __idflow_add_completions -W 'none'$'\n''packed'
        return
        ;;
    '--aaguid')
        return
        ;;
    '--acr-values')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_login-device() {
    repeating_flags=()
    non_repeating_flags=(--open --device-sso --no-store --version -h --help)
    repeating_options=()
    non_repeating_options=(--device-timeout --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'login-device' && return

    # Offer option value completions
    case "${prev}" in
    '--device-timeout')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_login-client() {
    repeating_flags=()
    non_repeating_flags=(--no-store --version -h --help)
    repeating_options=()
    non_repeating_options=(--client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'login-client' && return

    # Offer option value completions
    case "${prev}" in
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_login-sso() {
    repeating_flags=()
    non_repeating_flags=(--no-store --version -h --help)
    repeating_options=()
    non_repeating_options=(--from --audience --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'login-sso' && return

    # Offer option value completions
    case "${prev}" in
    '--from')
        return
        ;;
    '--audience')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_web-sso() {
    repeating_flags=()
    non_repeating_flags=(--open --version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'web-sso' && return
}

_idflow_login-jwt-bearer() {
    repeating_flags=()
    non_repeating_flags=(--no-store --version -h --help)
    repeating_options=()
    non_repeating_options=(--assertion-file --sign-with --key-id --sub --aud --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'login-jwt-bearer' && return

    # Offer option value completions
    case "${prev}" in
    '--assertion-file')
        __idflow_add_completions -f
        return
        ;;
    '--sign-with')
        __idflow_add_completions -f
        return
        ;;
    '--key-id')
        return
        ;;
    '--sub')
        return
        ;;
    '--aud')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_refresh() {
    repeating_flags=()
    non_repeating_flags=(--refresh-token-stdin --no-store --version -h --help)
    repeating_options=()
    non_repeating_options=(--client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'refresh' && return

    # Offer option value completions
    case "${prev}" in
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_api() {
    repeating_flags=()
    non_repeating_flags=(--include -i --raw --no-refresh --version -h --help)
    repeating_options=(-H --header)
    non_repeating_options=(-X --method --data)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'api' && return

    # Offer option value completions
    case "${prev}" in
    '-X'|'--method')
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--data')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_token() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    get|inspect|verify|introspect|revoke|exchange)
        # Offer subcommand argument completions
        "_idflow_token_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'get inspect verify introspect revoke exchange' -- "${cur}"))
        ;;
    esac
}

_idflow_token_get() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--min-ttl --output --token-type)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'token' 'get' && return

    # Offer option value completions
    case "${prev}" in
    '--min-ttl')
        return
        ;;
    '--output')
        __idflow_add_completions -W 'json'$'\n''exec-credential'
        return
        ;;
    '--token-type')
        __idflow_add_completions -W 'access'$'\n''refresh'$'\n''id'
        return
        ;;
    esac
}

_idflow_token_inspect() {
    repeating_flags=()
    non_repeating_flags=(--offline --version -h --help)
    repeating_options=()
    non_repeating_options=(--type)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'token' 'inspect' && return

    # Offer option value completions
    case "${prev}" in
    '--type')
        __idflow_add_completions -W 'access'$'\n''refresh'$'\n''id'
        return
        ;;
    esac
}

_idflow_token_verify() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--type --audience)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'token' 'verify' && return

    # Offer option value completions
    case "${prev}" in
    '--type')
        __idflow_add_completions -W 'access'$'\n''refresh'$'\n''id'
        return
        ;;
    '--audience')
        return
        ;;
    esac
}

_idflow_token_introspect() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--type --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'token' 'introspect' && return

    # Offer option value completions
    case "${prev}" in
    '--type')
        __idflow_add_completions -W 'access'$'\n''refresh'$'\n''id'
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_token_revoke() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--type --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'token' 'revoke' && return

    # Offer option value completions
    case "${prev}" in
    '--type')
        __idflow_add_completions -W 'access'$'\n''refresh'$'\n''id'
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_token_exchange() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=(--resource)
    non_repeating_options=(--subject-token-file --subject-from --subject-token-type --actor-token-file --actor-token-type --audience --requested-token-type --store-as --client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'token' 'exchange' && return

    # Offer option value completions
    case "${prev}" in
    '--subject-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--subject-from')
        return
        ;;
    '--subject-token-type')
        return
        ;;
    '--actor-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--actor-token-type')
        return
        ;;
    '--audience')
        return
        ;;
    '--resource')
        return
        ;;
    '--requested-token-type')
        return
        ;;
    '--store-as')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_userinfo() {
    repeating_flags=()
    non_repeating_flags=(--access-token-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'userinfo' && return
}

_idflow_logout() {
    repeating_flags=()
    non_repeating_flags=(--local --version -h --help)
    repeating_options=()
    non_repeating_options=(--client-secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'logout' && return

    # Offer option value completions
    case "${prev}" in
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_enroll() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|list|update|delete)
        # Offer subcommand argument completions
        "_idflow_enroll_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create list update delete' -- "${cur}"))
        ;;
    esac
}

_idflow_enroll_create() {
    repeating_flags=()
    non_repeating_flags=(--access-token-stdin --user-verification --pin-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--push-token --name --totp-secret-file --pin-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'enroll' 'create' && return

    # Offer option value completions
    case "${prev}" in
    '--push-token')
        return
        ;;
    '--name')
        return
        ;;
    '--totp-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--pin-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_enroll_list() {
    repeating_flags=()
    non_repeating_flags=(--check --version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'enroll' 'list' && return
}

_idflow_enroll_update() {
    repeating_flags=()
    non_repeating_flags=(--access-token-stdin --pin-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--push-token --user-verification --pin-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'enroll' 'update' && return

    # Offer option value completions
    case "${prev}" in
    '--push-token')
        return
        ;;
    '--user-verification')
        __idflow_add_completions -W 'on'$'\n''off'
        return
        ;;
    '--pin-file')
        __idflow_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion enroll update -- positional@0 "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_idflow_enroll_delete() {
    repeating_flags=()
    non_repeating_flags=(--local-only --access-token-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'enroll' 'delete' && return

    # Offer positional completions
    case "${positional_number}" in
    1)
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion enroll delete -- positional@0 "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_idflow_challenges() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--enrollment --wait)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'challenges' && return

    # Offer option value completions
    case "${prev}" in
    '--enrollment')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion challenges -- --enrollment "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--wait')
        return
        ;;
    esac
}

_idflow_resolve() {
    repeating_flags=()
    non_repeating_flags=(--next --approve --deny --user-verification --pin-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--transaction-id --enrollment --number --pin-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'resolve' && return

    # Offer option value completions
    case "${prev}" in
    '--transaction-id')
        return
        ;;
    '--enrollment')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion resolve -- --enrollment "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--number')
        return
        ;;
    '--pin-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_totp() {
    repeating_flags=()
    non_repeating_flags=(--secret-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--secret-file)
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'totp' && return

    # Offer option value completions
    case "${prev}" in
    '--secret-file')
        __idflow_add_completions -f
        return
        ;;
    esac
}

_idflow_passkey() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|show|delete)
        # Offer subcommand argument completions
        "_idflow_passkey_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list show delete' -- "${cur}"))
        ;;
    esac
}

_idflow_passkey_list() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'passkey' 'list' && return
}

_idflow_passkey_show() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'passkey' 'show' && return
}

_idflow_passkey_delete() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 1
    __idflow_configuration_values 'passkey' 'delete' && return
}

_idflow_sandbox() {
    repeating_flags=()
    non_repeating_flags=(--env --tls --version -h --help)
    repeating_options=()
    non_repeating_options=(--host --port --api-token --config --tls-cert --tls-key --tls-client-ca)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--host')
        return
        ;;
    '--port')
        return
        ;;
    '--api-token')
        return
        ;;
    '--config')
        __idflow_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--tls-cert')
        __idflow_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    '--tls-key')
        __idflow_add_completions -o plusdirs -fX '!*.@(pem|key)'
        return
        ;;
    '--tls-client-ca')
        __idflow_add_completions -o plusdirs -fX '!*.@(pem|crt)'
        return
        ;;
    esac
}

_idflow_demo() {
    repeating_flags=()
    non_repeating_flags=(--verbose --tls --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options 0
}

_idflow_doctor() {
    repeating_flags=()
    non_repeating_flags=(--offline --version -h --help)
    repeating_options=()
    non_repeating_options=()
    non_repeating_flags+=("${__idflow_configuration_flags[@]}")
    non_repeating_options+=("${__idflow_configuration_options[@]}")
    __idflow_offer_flags_options 0
    __idflow_configuration_values 'doctor' && return
}

_idflow_completion() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options 1

    # Offer positional completions
    case "${positional_number}" in
    1)
        __idflow_add_completions -W 'bash'$'\n''zsh'$'\n''fish'
        return
        ;;
    esac
}

_idflow_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __idflow_offer_flags_options -1
    # The subcommand names (added by idflow: the help command of ArgumentParser completes none).
    case "${COMP_WORDS[*]:2:COMP_CWORD-2}" in
    '')
        COMPREPLY+=($(compgen -W 'register activate set-password password user login-pkce login-direct login-device login-client login-sso web-sso login-jwt-bearer refresh api token userinfo logout enroll challenges resolve totp passkey sandbox demo doctor completion' -- "${cur}"))
        ;;
    'password')
        COMPREPLY+=($(compgen -W 'change reset' -- "${cur}"))
        ;;
    'user')
        COMPREPLY+=($(compgen -W 'get unlock suspend unsuspend expire-password reset-password' -- "${cur}"))
        ;;
    'token')
        COMPREPLY+=($(compgen -W 'get inspect verify introspect revoke exchange' -- "${cur}"))
        ;;
    'enroll')
        COMPREPLY+=($(compgen -W 'create list update delete' -- "${cur}"))
        ;;
    'passkey')
        COMPREPLY+=($(compgen -W 'list show delete' -- "${cur}"))
        ;;
    esac
}

complete -o filenames -F _idflow idflow
