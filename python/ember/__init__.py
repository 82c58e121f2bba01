# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""libember from Python, through ctypes: no compiled extension.

    import ember
    with ember.Counter("task-clock,page-faults") as c:   # this process
        work()
    print(c.read())                       # {'task-clock': 1034, 'page-faults': 256}

    s = ember.Sampler("cpu-clock", freq=999, pid=pid, callchain=True)
    for smp in s.samples():  ...          # .ip .pid .tid .time .cpu .callchain
    ember.Symbolizer().resolve(pid, ip)   # ('hot_a', '/usr/bin/prog')

    obj = ember.BpfObject("stacks.bpf.o")  # libbpf: open, load
    with obj.attach("sample", "cpu-clock/freq=99/", cpus="1"):
        time.sleep(1)
    for key, value in obj.map_items("counts", key_size=28, value_size=8): ...
    obj.stack("stack_ids", stack_id)      # [ip, ...] innermost first

The library is found in $EMBER_LIBRARY, the build tree beside this
package (python/../build), the install tree's lib/ (this package is in
lib/python3/dist-packages/ember), or the loader's path.
Errors raise OSError(errno, the sentence perf would print).
"""
import ctypes
import ctypes.util
import errno as _errno
import os

__all__ = ["Counter", "Sampler", "Sample", "Symbolizer", "BpfObject", "version", "library"]

_c_p = ctypes.c_void_p
_u64 = ctypes.c_uint64


def _find_library():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.environ.get("EMBER_LIBRARY"),
                 os.path.join(here, "..", "..", "build", "libember.so.0"),
                 os.path.join(here, "..", "..", "..", "libember.so.0")):
        if path and os.path.exists(path):
            return path
    return "libember.so.0"


library = ctypes.CDLL(_find_library(), use_errno=True)
_bpf = ctypes.CDLL(ctypes.util.find_library("bpf") or "libbpf.so.1", use_errno=True)


def _fn(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_L = library
_evlist_new = _fn(_L, "ember_evlist__new", _c_p)
_evlist_delete = _fn(_L, "ember_evlist__delete", None, _c_p)
_evlist_parse = _fn(_L, "ember_evlist__parse_events", ctypes.c_int, _c_p, ctypes.c_char_p, _c_p)
_evlist_set_maps = _fn(_L, "ember_evlist__set_maps", None, _c_p, _c_p, _c_p)
_evlist_open = _fn(_L, "ember_evlist__open", ctypes.c_int, _c_p)
_evlist_failed = _fn(_L, "ember_evlist__failed", _c_p, _c_p)
_evlist_enable = _fn(_L, "ember_evlist__enable", ctypes.c_int, _c_p)
_evlist_disable = _fn(_L, "ember_evlist__disable", ctypes.c_int, _c_p)
_evlist_next = _fn(_L, "ember_evlist__next", _c_p, _c_p, _c_p)
_evlist_mmap = _fn(_L, "ember_evlist__mmap", ctypes.c_int, _c_p, ctypes.c_size_t)
_evlist_nr_mmaps = _fn(_L, "ember_evlist__nr_mmaps", ctypes.c_int, _c_p)
_evlist_mmap_at = _fn(_L, "ember_evlist__mmap_at", _c_p, _c_p, ctypes.c_int)
_evlist_poll = _fn(_L, "ember_evlist__poll", ctypes.c_int, _c_p, ctypes.c_int)
_evsel_attr = _fn(_L, "ember_evsel__attr", _c_p, _c_p)
_evsel_name = _fn(_L, "ember_evsel__name", ctypes.c_char_p, _c_p)
_evsel_read = _fn(_L, "ember_evsel__read", ctypes.c_int, _c_p, ctypes.c_int, ctypes.c_int, _c_p)
_evsel_nr_cpus = _fn(_L, "ember_evsel__nr_cpus", ctypes.c_int, _c_p)
_evsel_nr_threads = _fn(_L, "ember_evsel__nr_threads", ctypes.c_int, _c_p)
_evsel_strerror = _fn(_L, "ember_evsel__strerror_open", ctypes.c_char_p, _c_p, ctypes.c_int,
                      ctypes.c_char_p, ctypes.c_size_t)
_cpu_map_new = _fn(_L, "ember_cpu_map__new", _c_p, ctypes.c_char_p)
_cpu_map_any = _fn(_L, "ember_cpu_map__new_any", _c_p)
_cpu_map_put = _fn(_L, "ember_cpu_map__put", None, _c_p)
_thread_map_pid = _fn(_L, "ember_thread_map__new_pid", _c_p, ctypes.c_int)
_thread_map_any = _fn(_L, "ember_thread_map__new_any", _c_p)
_thread_map_put = _fn(_L, "ember_thread_map__put", None, _c_p)
_mmap_read_init = _fn(_L, "ember_mmap__read_init", ctypes.c_size_t, _c_p)
_mmap_read_event = _fn(_L, "ember_mmap__read_event", _c_p, _c_p)
_mmap_read_done = _fn(_L, "ember_mmap__read_done", None, _c_p)
_sample_parse = _fn(_L, "ember_sample__parse", ctypes.c_int, _c_p, _c_p, _c_p)
_symbolizer_new = _fn(_L, "ember_symbolizer__new", _c_p, _c_p)
_symbolizer_delete = _fn(_L, "ember_symbolizer__delete", None, _c_p)
_symbolizer_resolve = _fn(_L, "ember_symbolizer__resolve", ctypes.c_int, _c_p, ctypes.c_int,
                          _u64, _c_p)
_bpf_perf_event = _fn(_L, "ember_bpf_perf__attach_event", _c_p, ctypes.c_int, ctypes.c_char_p, _c_p)
_bpf_perf_attr = _fn(_L, "ember_bpf_perf__attach_attr", _c_p, ctypes.c_int, _c_p, _c_p)
_bpf_perf_nr = _fn(_L, "ember_bpf_perf__nr_fds", ctypes.c_int, _c_p)
_bpf_perf_detach = _fn(_L, "ember_bpf_perf__detach", None, _c_p)
_bpf_percpu_sum = _fn(_L, "ember_bpf__percpu_sum", ctypes.c_int, ctypes.c_int, _c_p,
                      ctypes.POINTER(_u64))
_bpf_stack = _fn(_L, "ember_bpf__stack", ctypes.c_int, ctypes.c_int, ctypes.c_uint32,
                 ctypes.POINTER(_u64), ctypes.c_int)
_bpf_strerror = _fn(_L, "ember_bpf__strerror", ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                    ctypes.c_size_t)
_bpf_route_log = _fn(_L, "ember_bpf__route_log", None)
_version = _fn(_L, "ember_version", ctypes.c_char_p)

_obj_open = _fn(_bpf, "bpf_object__open_file", _c_p, ctypes.c_char_p, _c_p)
_obj_load = _fn(_bpf, "bpf_object__load", ctypes.c_int, _c_p)
_obj_close = _fn(_bpf, "bpf_object__close", None, _c_p)
_obj_prog = _fn(_bpf, "bpf_object__find_program_by_name", _c_p, _c_p, ctypes.c_char_p)
_obj_map_fd = _fn(_bpf, "bpf_object__find_map_fd_by_name", ctypes.c_int, _c_p, ctypes.c_char_p)
_prog_fd = _fn(_bpf, "bpf_program__fd", ctypes.c_int, _c_p)
_map_next_key = _fn(_bpf, "bpf_map_get_next_key", ctypes.c_int, ctypes.c_int, _c_p, _c_p)
_map_lookup = _fn(_bpf, "bpf_map_lookup_elem", ctypes.c_int, ctypes.c_int, _c_p, _c_p)

# perf_event_attr's first fields and <linux/perf_event.h>'s numbers used here
PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, PERF_TYPE_TRACEPOINT = 0, 1, 2
PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS = 0, 1, 2
PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME = 1 << 0, 1 << 1, 1 << 2
PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD, PERF_SAMPLE_CALLCHAIN = 1 << 7, 1 << 8, 1 << 5
PERF_RECORD_SAMPLE = 9
_ATTR_BITS = {"disabled": 0, "inherit": 1, "exclude_user": 4, "exclude_kernel": 5,
              "exclude_hv": 6, "exclude_idle": 7, "freq": 10}


class _Attr(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("size", ctypes.c_uint32), ("config", _u64),
                ("sample_period", _u64), ("sample_type", _u64), ("read_format", _u64),
                ("flags", _u64), ("wakeup_events", ctypes.c_uint32),
                ("_pad", ctypes.c_uint8 * 456)]


class _Counts(ctypes.Structure):
    _fields_ = [("val", _u64), ("ena", _u64), ("run", _u64), ("lost", _u64)]


class _SampleHead(ctypes.Structure):     # struct ember_sample's leading fields
    _fields_ = [("ip", _u64), ("pid", ctypes.c_uint32), ("tid", ctypes.c_uint32), ("time", _u64),
                ("addr", _u64), ("id", _u64), ("stream_id", _u64), ("cpu", ctypes.c_uint32),
                ("cpu_res", ctypes.c_uint32), ("period", _u64), ("_read", _u64 * 8),
                ("callchain_nr", _u64), ("callchain", ctypes.POINTER(_u64)),
                ("_rest", ctypes.c_uint8 * 1024)]


class _AddrLocation(ctypes.Structure):
    _fields_ = [("thread", _c_p), ("map", _c_p), ("dso", _c_p), ("sym", _c_p),
                ("comm", ctypes.c_char_p), ("dso_name", ctypes.c_char_p),
                ("dso_short_name", ctypes.c_char_p), ("sym_name", ctypes.c_char_p),
                ("ip", _u64), ("addr", _u64), ("sym_off", _u64), ("_rest", ctypes.c_uint8 * 256)]


class _BpfPerfOpts(ctypes.Structure):
    _fields_ = [("sz", ctypes.c_size_t), ("cpus", ctypes.c_char_p), ("pid", ctypes.c_int),
                ("errbuf", ctypes.c_char_p), ("errbuf_size", ctypes.c_size_t)]


def version():
    return _version().decode()


def _error(err, what):
    return OSError(abs(err), what if isinstance(what, str) else os.strerror(abs(err)))


def attr(**fields):
    """A perf_event_attr from keyword fields (type, config, sample_period or
    sample_freq, sample_type, and flag names: freq, disabled, exclude_kernel...)."""
    a = _Attr()
    for name, value in fields.items():
        if name == "sample_freq":
            a.sample_period = value
            a.flags |= 1 << _ATTR_BITS["freq"]
        elif name in _ATTR_BITS:
            a.flags = (a.flags | 1 << _ATTR_BITS[name]) if value else \
                (a.flags & ~(1 << _ATTR_BITS[name]))
        else:
            setattr(a, name, value)
    return a


class _Events:
    """An evlist parsed from perf's event syntax, opened on cpus x threads."""

    def __init__(self, events, pid=None, cpus=None, setup=None):
        self._evlist = _evlist_new()
        if not self._evlist:
            raise _error(ctypes.get_errno(), None)
        err = _evlist_parse(self._evlist, events.encode(), None)
        if err:
            self.close()
            raise _error(err, "cannot parse the event '%s'" % events)
        self.evsels = []
        ev = _evlist_next(self._evlist, None)
        while ev:
            self.evsels.append(ev)
            if setup:
                setup(_Attr.from_address(_evsel_attr(ev)))
            ev = _evlist_next(self._evlist, ev)
        cpu_map = _cpu_map_new(cpus.encode()) if cpus else \
            (_cpu_map_any() if pid is not None else _cpu_map_new(None))
        threads = _thread_map_pid(pid) if pid is not None else _thread_map_any()
        _evlist_set_maps(self._evlist, cpu_map, threads)
        _cpu_map_put(cpu_map)
        _thread_map_put(threads)
        err = _evlist_open(self._evlist)
        if err:
            buf = ctypes.create_string_buffer(512)
            msg = _evsel_strerror(_evlist_failed(self._evlist), err, buf, 512).decode()
            self.close()
            raise _error(err, msg)

    def close(self):
        if self._evlist:
            _evlist_delete(self._evlist)
            self._evlist = None

    def __del__(self):
        self.close()


class Counter(_Events):
    """Counts events for a process (default: this one) or, with cpus, per cpu."""

    def __init__(self, events, pid=None, cpus=None):
        super().__init__(events, os.getpid() if pid is None and not cpus else pid, cpus,
                         setup=lambda a: setattr(a, "flags", a.flags | 1))
    def enable(self):
        _evlist_enable(self._evlist)

    def disable(self):
        _evlist_disable(self._evlist)

    def read(self):
        """{event name: count summed over cpus and threads}"""
        out = {}
        for ev in self.evsels:
            total, c = 0, _Counts()
            for ci in range(_evsel_nr_cpus(ev)):
                for ti in range(_evsel_nr_threads(ev)):
                    if _evsel_read(ev, ci, ti, ctypes.byref(c)) == 0:
                        total += c.val
            out[_evsel_name(ev).decode()] = total
        return out

    def __enter__(self):
        self.enable()
        return self

    def __exit__(self, *exc):
        self.disable()


class Sample:
    __slots__ = ("ip", "pid", "tid", "time", "cpu", "period", "callchain")

    def __init__(self, head):
        self.ip, self.pid, self.tid = head.ip, head.pid, head.tid
        self.time, self.cpu, self.period = head.time, head.cpu, head.period
        self.callchain = [head.callchain[i] for i in range(head.callchain_nr)]

    def __repr__(self):
        return "Sample(ip=%#x, pid=%d, tid=%d, cpu=%d)" % (self.ip, self.pid, self.tid, self.cpu)


class Sampler(_Events):
    """Samples an event (freq Hz) into ring buffers; samples() drains them."""

    def __init__(self, events="cpu-clock", freq=999, pid=None, cpus=None, callchain=False,
                 pages=64):
        sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
            PERF_SAMPLE_PERIOD | (PERF_SAMPLE_CALLCHAIN if callchain else 0)

        def setup(a):
            a.sample_type, a.sample_period = sample_type, freq
            a.flags |= 1 << _ATTR_BITS["freq"] | 1 << _ATTR_BITS["disabled"]
        super().__init__(events, pid, cpus, setup)
        err = _evlist_mmap(self._evlist, pages)
        if err:
            self.close()
            raise _error(err, None)
        self._attrs = [_evsel_attr(ev) for ev in self.evsels]

    def start(self):
        _evlist_enable(self._evlist)

    def stop(self):
        _evlist_disable(self._evlist)

    def poll(self, timeout_ms=100):
        return _evlist_poll(self._evlist, timeout_ms)

    def samples(self):
        head = _SampleHead()
        for i in range(_evlist_nr_mmaps(self._evlist)):
            m = _evlist_mmap_at(self._evlist, i)
            _mmap_read_init(m)
            while True:
                rec = _mmap_read_event(m)
                if not rec:
                    break
                # struct perf_event_header: u32 type, u16 misc, u16 size
                if ctypes.c_uint32.from_address(rec).value != PERF_RECORD_SAMPLE:
                    continue
                if _sample_parse(ctypes.byref(head), rec, self._attrs[0]) == 0:
                    yield Sample(head)
            _mmap_read_done(m)


class Symbolizer:
    """Addresses of running processes (and the kernel) to (symbol, dso path)."""

    def __init__(self):
        self._s = _symbolizer_new(None)
        if not self._s:
            raise _error(ctypes.get_errno(), None)

    def resolve(self, pid, ip):
        al = _AddrLocation()
        err = _symbolizer_resolve(self._s, pid, ip, ctypes.byref(al))
        sym = al.sym_name.decode() if err == 0 and al.sym_name else None
        dso = al.dso_name.decode() if al.dso_name else None
        return sym, dso

    def close(self):
        if self._s:
            _symbolizer_delete(self._s)
            self._s = None

    def __del__(self):
        self.close()


class _Attachment:
    def __init__(self, handle):
        self._h = handle

    @property
    def nr_fds(self):
        return _bpf_perf_nr(self._h)

    def detach(self):
        if self._h:
            _bpf_perf_detach(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.detach()


class BpfObject:
    """A compiled BPF object (clang -target bpf) opened and loaded by libbpf."""

    def __init__(self, path):
        _bpf_route_log()
        self._obj = _obj_open(path.encode(), None)
        if not self._obj:
            raise _error(ctypes.get_errno(), "cannot open the BPF object %s" % path)
        err = _obj_load(self._obj)
        if err:
            buf = ctypes.create_string_buffer(512)
            msg = _bpf_strerror(err, buf, 512).decode()
            self.close()
            raise _error(err, msg)

    def prog_fd(self, name):
        prog = _obj_prog(self._obj, name.encode())
        if not prog:
            raise _error(_errno.ENOENT, "no BPF program named '%s'" % name)
        return _prog_fd(prog)

    def map_fd(self, name):
        fd = _obj_map_fd(self._obj, name.encode())
        if fd < 0:
            raise _error(_errno.ENOENT, "no BPF map named '%s'" % name)
        return fd

    def attach(self, prog, event, cpus=None, pid=None):
        """Run program `prog` at each sample of `event` (perf's syntax, or attr(...))
        on every cpu of `cpus` (a list like "0-1"; None: all), for `pid` or every process."""
        buf = ctypes.create_string_buffer(512)
        opts = _BpfPerfOpts(ctypes.sizeof(_BpfPerfOpts), cpus.encode() if cpus else None,
                            pid if pid else -1, ctypes.cast(buf, ctypes.c_char_p), 512)
        if isinstance(event, _Attr):
            h = _bpf_perf_attr(self.prog_fd(prog), ctypes.byref(event), ctypes.byref(opts))
        else:
            h = _bpf_perf_event(self.prog_fd(prog), event.encode(), ctypes.byref(opts))
        if not h:
            raise _error(ctypes.get_errno(), buf.value.decode())
        return _Attachment(h)

    def map_items(self, name, key_size, value_size):
        """(key bytes, value bytes) of every entry of a hash/array map."""
        fd = self.map_fd(name)
        key, nxt = ctypes.create_string_buffer(key_size), ctypes.create_string_buffer(key_size)
        val, prev = ctypes.create_string_buffer(value_size), None
        while _map_next_key(fd, prev, nxt) == 0:
            ctypes.memmove(key, nxt, key_size)
            prev = key
            if _map_lookup(fd, key, val) == 0:
                yield key.raw, val.raw

    def percpu_sum(self, name, key):
        total = _u64()
        err = _bpf_percpu_sum(self.map_fd(name), ctypes.c_char_p(key), ctypes.byref(total))
        if err:
            raise _error(err, None)
        return total.value

    def stack(self, name, stack_id, max_frames=127):
        ips = (_u64 * max_frames)()
        n = _bpf_stack(self.map_fd(name), stack_id, ips, max_frames)
        return list(ips[:n]) if n > 0 else []

    def close(self):
        if getattr(self, "_obj", None):
            _obj_close(self._obj)
            self._obj = None

    def __del__(self):
        self.close()
