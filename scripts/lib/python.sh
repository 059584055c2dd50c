# Python for the Python package's tests (PythonApiITCase): python3 with venv and ensurepip, so
# `pip install ./python` works offline into a fresh virtual environment (the package builds with
# its own standard-library build backend: no setuptools or wheel needed).

py_install() {
  python3 -c 'import ensurepip, venv' 2>/dev/null && return 0
  echo "py_install: installing python3 and python3-venv with apt" >&2
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3 python3-venv
}
