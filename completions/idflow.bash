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
    register|activate|set-password|user|login-pkce|login-device|login-client|refresh|api|token|userinfo|logout|enroll|challenges|resolve|totp|sandbox|demo|doctor|completion|help)
        # Offer subcommand argument completions
        "_idflow_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'register activate set-password user login-pkce login-device login-client refresh api token userinfo logout enroll challenges resolve totp sandbox demo doctor completion help' -- "${cur}"))
        ;;
    esac
}

_idflow_register() {
    repeating_flags=()
    non_repeating_flags=(--data-stdin --cancel --embedded --no-store --activate --skip-existing --summary-json --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=(--attr --answer)
    non_repeating_options=(--email --first-name --last-name --login --idp --init-data --data --transaction-id --token-server --resume --remediation --totp-secret-file --client-secret-file --batch --format --concurrency --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion register -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_activate() {
    repeating_flags=()
    non_repeating_flags=(--send-email --reactivate --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--user --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--user')
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion activate -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_set-password() {
    repeating_flags=()
    non_repeating_flags=(--activation-url-stdin --password-stdin --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--activation-token --activation-token-file --activation-url --activation-url-file --password-file --password --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion set-password -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
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
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion user get -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_user_unlock() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion user unlock -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_user_suspend() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion user suspend -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_user_unsuspend() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion user unsuspend -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_user_expire-password() {
    repeating_flags=()
    non_repeating_flags=(--temp-password --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion user expire-password -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_user_reset-password() {
    repeating_flags=()
    non_repeating_flags=(--send-email --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion user reset-password -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_login-pkce() {
    repeating_flags=()
    non_repeating_flags=(--session-token-stdin --password-stdin --browser --manual --embedded --recover --unlock --new-password-stdin --no-store --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=(--answer)
    non_repeating_options=(--session-token --username --password-file --password --port --browser-timeout --resume --remediation --totp-secret-file --new-password-file --mfa --mfa-timeout --client-secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion login-pkce -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_login-device() {
    repeating_flags=()
    non_repeating_flags=(--open --no-store --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--device-timeout --client-secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--device-timeout')
        return
        ;;
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion login-device -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_login-client() {
    repeating_flags=()
    non_repeating_flags=(--no-store --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--client-secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion login-client -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_refresh() {
    repeating_flags=()
    non_repeating_flags=(--refresh-token-stdin --no-store --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--client-secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion refresh -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_api() {
    repeating_flags=()
    non_repeating_flags=(--include -i --raw --no-refresh --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=(-H --header)
    non_repeating_options=(-X --method --data --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion api -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
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
    get|inspect|verify|introspect|revoke)
        # Offer subcommand argument completions
        "_idflow_token_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'get inspect verify introspect revoke' -- "${cur}"))
        ;;
    esac
}

_idflow_token_get() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--min-ttl --output --token-type --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion token get -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_token_inspect() {
    repeating_flags=()
    non_repeating_flags=(--offline --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--type --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--type')
        __idflow_add_completions -W 'access'$'\n''refresh'$'\n''id'
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion token inspect -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_token_verify() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--type --audience --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--type')
        __idflow_add_completions -W 'access'$'\n''refresh'$'\n''id'
        return
        ;;
    '--audience')
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion token verify -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_token_introspect() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--type --client-secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion token introspect -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_token_revoke() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--type --client-secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion token revoke -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_userinfo() {
    repeating_flags=()
    non_repeating_flags=(--access-token-stdin --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion userinfo -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_logout() {
    repeating_flags=()
    non_repeating_flags=(--local --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--client-secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--client-secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion logout -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
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
    non_repeating_flags=(--access-token-stdin --user-verification --pin-stdin --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--push-token --name --totp-secret-file --pin-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion enroll create -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_enroll_list() {
    repeating_flags=()
    non_repeating_flags=(--check --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion enroll list -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_enroll_update() {
    repeating_flags=()
    non_repeating_flags=(--access-token-stdin --pin-stdin --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--push-token --user-verification --pin-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion enroll update -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
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
    non_repeating_flags=(--local-only --access-token-stdin --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion enroll delete -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac

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
    non_repeating_flags=(--verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--enrollment --wait --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--enrollment')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion challenges -- --enrollment "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--wait')
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion challenges -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_resolve() {
    repeating_flags=()
    non_repeating_flags=(--next --approve --deny --user-verification --pin-stdin --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--transaction-id --enrollment --number --pin-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

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
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion resolve -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
}

_idflow_totp() {
    repeating_flags=()
    non_repeating_flags=(--secret-stdin --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--secret-file --org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--secret-file')
        __idflow_add_completions -f
        return
        ;;
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion totp -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
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
    non_repeating_flags=(--offline --verbose -v --curl --quiet -q --dpop --pretty --compact --version -h --help)
    repeating_options=()
    non_repeating_options=(--org-url --api-token-file --issuer --client-id --redirect-uri --scope --profile --state-dir --curl-file --timeout --max-retries --ca-file --client-cert --client-key --proxy --authorization-mode --service-client-id --service-scopes --private-key-file --private-key-id)
    __idflow_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--org-url')
        return
        ;;
    '--api-token-file')
        __idflow_add_completions -f
        return
        ;;
    '--issuer')
        return
        ;;
    '--client-id')
        return
        ;;
    '--redirect-uri')
        return
        ;;
    '--scope')
        return
        ;;
    '--profile')
        __idflow_add_completions -W "$(__idflow_custom_complete ---completion doctor -- --profile "${COMP_CWORD}" "$(__idflow_cursor_index_in_current_word)")"
        return
        ;;
    '--state-dir')
        __idflow_add_completions -d
        return
        ;;
    '--curl-file')
        __idflow_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--max-retries')
        return
        ;;
    '--ca-file')
        __idflow_add_completions -f
        return
        ;;
    '--client-cert')
        __idflow_add_completions -f
        return
        ;;
    '--client-key')
        __idflow_add_completions -f
        return
        ;;
    '--proxy')
        return
        ;;
    '--authorization-mode')
        return
        ;;
    '--service-client-id')
        return
        ;;
    '--service-scopes')
        return
        ;;
    '--private-key-file')
        __idflow_add_completions -f
        return
        ;;
    '--private-key-id')
        return
        ;;
    esac
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
        COMPREPLY+=($(compgen -W 'register activate set-password user login-pkce login-device login-client refresh api token userinfo logout enroll challenges resolve totp sandbox demo doctor completion' -- "${cur}"))
        ;;
    'user')
        COMPREPLY+=($(compgen -W 'get unlock suspend unsuspend expire-password reset-password' -- "${cur}"))
        ;;
    'token')
        COMPREPLY+=($(compgen -W 'get inspect verify introspect revoke' -- "${cur}"))
        ;;
    'enroll')
        COMPREPLY+=($(compgen -W 'create list update delete' -- "${cur}"))
        ;;
    esac
}

complete -o filenames -F _idflow idflow
