# Sourced by platform/run and platform/test: makes .venv and installs requirements.txt,
# skipping the install when the file's hash matches the one recorded by the last install,
# then compiles the engine unless its build for the current sources is there.
# The repository root must be the current directory.

venv_ensure() {
    local python hash stamp=.venv/.requirements.sha256
    if [ ! -x .venv/bin/python ]; then
        python=$(command -v python3.11 || command -v python3) || {
            echo "python3 (3.10-3.13) is needed" >&2
            return 1
        }
        "$python" -m venv .venv
    fi
    hash=$(.venv/bin/python -c 'import hashlib; print(hashlib.sha256(open("requirements.txt", "rb").read()).hexdigest())')
    if [ "$(cat "$stamp" 2>/dev/null)" != "$hash" ]; then
        echo "Installing requirements into .venv ..." >&2
        # This machine's pip configuration names find-links folders that may not exist; its
        # "Location ... is ignored" warnings drown real errors, so they are filtered out.
        {
            .venv/bin/python -m pip install --quiet --disable-pip-version-check \
                -r requirements.txt 2>&1 1>&3 |
                { grep -v "^WARNING: Location '.*' is ignored" || true; } >&2
        } 3>&1
        echo "$hash" >"$stamp"
    fi
    # The engine compiled for its current sources (games/engine/native.py); when that
    # fails the engine runs as plain Python, so a failure here stops nothing.
    .venv/bin/python platform/engine_native.py || true
}
