# Python for the Python package's tests (PythonApiITCase): python3 with venv (ensurepip) and
# setuptools, so `pip install ./python` works offline into a fresh virtual environment.

py_install() {
  python3 -c 'import ensurepip, setuptools, venv' 2>/dev/null && return 0
  echo "py_install: installing python3, python3-venv and python3-setuptools with apt" >&2
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    python3 python3-venv python3-setuptools
}
