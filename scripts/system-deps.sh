#!/usr/bin/env bash
# Installs what a fresh machine lacks for the test suite: Debian's Chromium (browser tests), fonts
# that cover Devanagari, tmux (terminal tests), Redis (several server processes), HAProxy and iproute2
# (the deployment test's load balancer and network namespaces). Starts PostgreSQL and Redis when they
# are not already answering.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s fonts-noto-core >/dev/null 2>&1 || need+=(fonts-noto-core)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v haproxy >/dev/null 2>&1 || need+=(haproxy)
command -v ip >/dev/null 2>&1 || need+=(iproute2)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing Debian packages: ${need[*]} (run as root to install them)" >&2
  fi
fi
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
fi
# The store tests' PostgreSQL database (PARLOUR_TEST_POSTGRES_URL's default): create it when missing.
if command -v psql >/dev/null 2>&1; then
  for _ in $(seq 1 20); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.5; done
  if pg_isready -q -h 127.0.0.1 -p 5432 && ! psql -h 127.0.0.1 -U postgres -d postgres -tAc \
      "select 1 from pg_database where datname = 'test'" 2>/dev/null | grep -q 1; then
    psql -h 127.0.0.1 -U postgres -d postgres -qc "create database test" || true
  fi
fi
# Redis for the tests of several server processes (PARLOUR_TEST_REDIS_URL's default): start one that
# keeps nothing on disk when none answers.
if command -v redis-server >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null || true
  for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.25; done
fi
