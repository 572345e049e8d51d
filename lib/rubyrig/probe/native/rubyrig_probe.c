/* The probe's native fast path, loaded instead of loader.rb in CRuby processes whose interpreter it was
 * compiled for (Runtimes::ProbeNative): it loads no Ruby code, so a measured process pays about a tenth
 * of what the Ruby probe costs it (bench/probe-cost), and at exit it writes the same report as probe.rb
 * for a process that needs nothing more. Whatever a process needs beyond that (records from a harness,
 * YJIT's statistics, M:N, the allocator, PSS, echoed variables, a string that needs escaping) makes it
 * load the Ruby probe at exit (RUBYRIG_PROBE_LOADER), which then writes the report; a harness that
 * loads the Ruby probe during the run takes over the report the same way. Both share their state in
 * RubyrigProbe's instance variables (@records, @gc_baseline), so a fork resets it for either. The
 * report's fields are the schema in docs/results-format.md ("Probe report"), which a test holds both to. */
#include <ruby.h>
#include <ruby/version.h>
#include "rubyrig_built_for.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static VALUE probe;
static double started_at;
static double load_s;

static double monotonic_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Plain ASCII with nothing JSON escapes: written as it is; anything else goes to the Ruby probe. */
static int plain(const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c < 0x20 || *c >= 0x7f || *c == '"' || *c == '\\') return 0;
    }
    return 1;
}

static const char *constant_text(const char *name)
{
    VALUE value = rb_const_get(rb_cObject, rb_intern(name));
    return RB_TYPE_P(value, T_STRING) ? StringValueCStr(value) : "";
}

static int set(const char *name)
{
    const char *value = getenv(name);
    return value && strcmp(value, "1") == 0;
}

static int yjit_enabled(void)
{
    VALUE vm = rb_const_get(rb_cObject, rb_intern("RubyVM"));
    if (!rb_const_defined(vm, rb_intern("YJIT"))) return 0;
    VALUE yjit = rb_const_get(vm, rb_intern("YJIT"));
    return rb_respond_to(yjit, rb_intern("enabled?")) && RTEST(rb_funcall(yjit, rb_intern("enabled?"), 0));
}

/* What the fast report cannot hold: then the Ruby probe writes it. */
static int needs_ruby(const char *program, const char *mn)
{
    const char *keys = getenv("RUBYRIG_PROBE_ENV_KEYS");
    VALUE records = rb_ivar_get(probe, rb_intern("@records"));
    return (RB_TYPE_P(records, T_HASH) && RHASH_SIZE(records) > 0) || yjit_enabled() || set("RUBYRIG_PROBE_MN") ||
        set("RUBYRIG_PROBE_PSS") || set("RUBYRIG_PROBE_ALLOCATOR") || (keys && *keys) || !plain(program) ||
        (mn && !plain(mn)) || !plain(constant_text("RUBY_DESCRIPTION"));
}

/* GC's counts and time, and the Ruby heap's bytes, as probe.rb's gc_totals (-1 where unknown). */
static long long stat_value(VALUE stat, const char *key)
{
    VALUE value = rb_hash_aref(stat, ID2SYM(rb_intern(key)));
    return RB_INTEGER_TYPE_P(value) ? NUM2LL(value) : -1;
}

static void gc_totals(long long totals[6])
{
    static const char *keys[5] = {"count", "minor_gc_count", "major_gc_count", "time", "total_allocated_objects"};
    VALUE stat = rb_hash_new();
    rb_gc_stat(stat);
    for (int i = 0; i < 5; i++) totals[i] = stat_value(stat, keys[i]);
    VALUE gc = rb_const_get(rb_cObject, rb_intern("GC"));
    VALUE page = rb_const_defined(gc, rb_intern("INTERNAL_CONSTANTS")) ?
        rb_hash_aref(rb_const_get(gc, rb_intern("INTERNAL_CONSTANTS")), ID2SYM(rb_intern("HEAP_PAGE_SIZE"))) : Qnil;
    long long pages = stat_value(stat, "heap_allocated_pages");
    totals[5] = (FIXNUM_P(page) && pages >= 0) ? FIX2LONG(page) * pages : -1;
}

/* The baseline of GC's work at a fork (the heap's size is not counted from it), as probe.rb keeps it. */
static VALUE baseline_array(void)
{
    long long totals[6];
    gc_totals(totals);
    VALUE array = rb_ary_new_capa(5);
    for (int i = 0; i < 5; i++) rb_ary_push(array, totals[i] < 0 ? Qnil : LL2NUM(totals[i]));
    return array;
}

/* Less the baseline a fork left (as probe.rb does). */
static void since_fork(long long totals[6])
{
    VALUE baseline = rb_ivar_get(probe, rb_intern("@gc_baseline"));
    if (!RB_TYPE_P(baseline, T_ARRAY)) return;
    for (int i = 0; i < 6 && i < RARRAY_LEN(baseline); i++) {
        VALUE base = rb_ary_entry(baseline, i);
        if (totals[i] >= 0 && !NIL_P(base)) totals[i] -= NUM2LL(base);
    }
}

/* The number after "Field:" in /proc/self/status, in bytes; -1 where it is missing. */
static long long kilobytes(const char *status, const char *field)
{
    const char *at = strstr(status, field);
    return at ? strtoll(at + strlen(field), NULL, 10) * 1024 : -1;
}

static void number(FILE *out, long long value)
{
    if (value < 0) fputs("null", out);
    else fprintf(out, "%lld", value);
}

static void write_report(const char *dir, const char *program, const char *mn, double began)
{
    char status[8192] = {0};
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t size = read(fd, status, sizeof(status) - 1);
        status[size > 0 ? size : 0] = '\0';
        close(fd);
    }
    long long gc[6];
    gc_totals(gc);
    since_fork(gc);
    long threads = RARRAY_LEN(rb_funcall(rb_cThread, rb_intern("list"), 0));
    char path[4096];
    snprintf(path, sizeof(path), "%s/probe-%ld.json", dir, (long)getpid());
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "rubyrig probe: could not write facts: %s\n", path);
        return;
    }
    fprintf(out, "{\"pid\":%ld,\"ppid\":%ld,\"engine\":\"%s\",\"engine_version\":\"%s\",\"ruby_version\":\"%s\","
        "\"description\":\"%s\",\"started_at_monotonic\":%.9f,\"yjit_enabled\":false,\"allocator\":null,\"mn_threads_env\":",
        (long)getpid(), (long)getppid(), constant_text("RUBY_ENGINE"), constant_text("RUBY_ENGINE_VERSION"),
        constant_text("RUBY_VERSION"), constant_text("RUBY_DESCRIPTION"), started_at);
    if (mn) fprintf(out, "\"%s\"", mn);
    else fputs("null", out);
    fprintf(out, ",\"env\":{},\"program\":\"%s\",\"exited_at_monotonic\":%.9f,\"gc\":{\"count\":", program, began);
    number(out, gc[0]);
    fputs(",\"minor_count\":", out);
    number(out, gc[1]);
    fputs(",\"major_count\":", out);
    number(out, gc[2]);
    fputs(",\"time_ms\":", out);
    number(out, gc[3]);
    fputs(",\"total_allocated_objects\":", out);
    number(out, gc[4]);
    fputs("},\"memory\":{\"rss_bytes\":", out);
    number(out, kilobytes(status, "VmRSS:"));
    fputs(",\"hwm_bytes\":", out);
    number(out, kilobytes(status, "VmHWM:"));
    fputs(",\"ruby_heap_bytes\":", out);
    number(out, gc[5]);
    fprintf(out, "},\"threads\":%ld,\"probe_load_s\":%.9f,\"probe_report_s\":%.9f}", threads, load_s, monotonic_s() - began);
    fclose(out);
}

/* The fast report, or the Ruby probe loaded now, whose at_exit, registered while this one runs, then
 * reports (Ruby runs an at_exit registered by another). */
static VALUE exit_report(VALUE dir_value)
{
    const char *dir = StringValueCStr(dir_value);
    double began = monotonic_s();
    VALUE name = rb_gv_get("$0");
    const char *program = RB_TYPE_P(name, T_STRING) ? StringValueCStr(name) : "";
    const char *mn = getenv("RUBY_MN_THREADS");
    const char *loader = getenv("RUBYRIG_PROBE_LOADER");
    if (!needs_ruby(program, mn)) write_report(dir, program, mn, began);
    else if (loader) {
        rb_ivar_set(probe, rb_intern("@exit_began"), DBL2NUM(began));
        rb_require(loader);
    } else fputs("rubyrig probe: could not write facts: no RUBYRIG_PROBE_LOADER to load the Ruby probe\n", stderr);
    return Qnil;
}

/* At exit, unless the Ruby probe is loaded (its own at_exit reports). */
static void report_at_exit(VALUE unused)
{
    const char *dir = getenv("RUBYRIG_PROBE_DIR");
    if (!dir || rb_const_defined(probe, rb_intern("LOADED_AT"))) return;
    int state = 0;
    rb_protect(exit_report, rb_str_new_cstr(dir), &state);
    if (state) { /* never change the measured program's exit because of the probe */
        VALUE message = rb_funcall(rb_errinfo(), rb_intern("message"), 0);
        rb_set_errinfo(Qnil);
        fprintf(stderr, "rubyrig probe: could not write facts: %s\n", RB_TYPE_P(message, T_STRING) ? RSTRING_PTR(message) : "");
    }
}

static VALUE record(VALUE self, VALUE key, VALUE value)
{
    VALUE records = rb_ivar_get(probe, rb_intern("@records"));
    if (!RB_TYPE_P(records, T_HASH)) rb_ivar_set(probe, rb_intern("@records"), records = rb_hash_new());
    return rb_hash_aset(records, rb_funcall(key, rb_intern("to_s"), 0), value);
}

/* In a forked child: forget what the parent recorded and count GC from here. */
static VALUE fork_hook(int argc, VALUE *argv, VALUE self)
{
    VALUE pid = rb_call_super(argc, argv);
    if (pid == INT2FIX(0) && !rb_const_defined(probe, rb_intern("LOADED_AT"))) {
        rb_ivar_set(probe, rb_intern("@records"), rb_hash_new());
        rb_ivar_set(probe, rb_intern("@gc_baseline"), baseline_array());
    }
    return pid;
}

/* Programs this process starts get the Ruby probe's loader in RUBYOPT instead of this build, which
 * only this interpreter can load (another Ruby would refuse to start with it). */
static void hand_children_the_loader(void)
{
    static const char so[] = "rubyrig_probe.so";
    const char *rubyopt = getenv("RUBYOPT"), *loader = getenv("RUBYRIG_PROBE_LOADER");
    if (!rubyopt || !loader) return;
    /* The token "-r<path>rubyrig_probe.so", ended by a space or the end. */
    for (const char *at = strstr(rubyopt, "-r"); at; at = strstr(at + 2, "-r")) {
        size_t length = strcspn(at, " ");
        if ((at != rubyopt && at[-1] != ' ') || length < sizeof(so) + 1 || strncmp(at + length - (sizeof(so) - 1), so, sizeof(so) - 1) != 0) continue;
        size_t size = strlen(rubyopt) + strlen(loader) + 3;
        char *replaced = malloc(size);
        if (!replaced) return;
        snprintf(replaced, size, "%.*s-r%s%s", (int)(at - rubyopt), rubyopt, loader, at + length);
        setenv("RUBYOPT", replaced, 1);
        free(replaced);
        return;
    }
}

/* A description without the run's own options (" +YJIT", " +MN"...), which are not the build. */
static void without_options(const char *description, char *out, size_t size)
{
    size_t n = 0;
    while (*description && n + 1 < size) {
        if (description[0] == ' ' && description[1] == '+') {
            description++;
            while (*description && *description != ' ') description++;
            continue;
        }
        out[n++] = *description++;
    }
    out[n] = '\0';
}

static int built_for_this_interpreter(void)
{
    char running[512], built[512];
    without_options(ruby_description, running, sizeof(running));
    without_options(RUBYRIG_BUILT_FOR, built, sizeof(built));
    return strcmp(running, built) == 0;
}

void Init_rubyrig_probe(void)
{
    started_at = monotonic_s();
    hand_children_the_loader();
    /* Built for another interpreter (a measured program started a different CRuby): the Ruby probe. */
    if (!built_for_this_interpreter()) {
        if (getenv("RUBYRIG_PROBE_LOADER")) rb_require(getenv("RUBYRIG_PROBE_LOADER"));
        return;
    }
    probe = rb_define_module("RubyrigProbe");
    /* Loaded already (a harness given with -r on the command line loads it before RUBYOPT's): it reports. */
    if (rb_const_defined(probe, rb_intern("LOADED_AT"))) return;
    rb_define_const(probe, "STARTED_AT", DBL2NUM(started_at));
    rb_define_singleton_method(probe, "record", record, 2);
    /* Long-lived servers and workers write their boot facts now: the Ruby probe does that. */
    if (set("RUBYRIG_PROBE_EARLY") && getenv("RUBYRIG_PROBE_LOADER")) {
        rb_require(getenv("RUBYRIG_PROBE_LOADER"));
        return;
    }
    rb_ivar_set(probe, rb_intern("@records"), rb_hash_new());
    if (getenv("RUBYRIG_PROBE_DIR")) {
        if (rb_respond_to(rb_mProcess, rb_intern("_fork"))) {
            VALUE hook = rb_define_module("RubyrigProbeNativeForkHook");
            rb_define_method(hook, "_fork", fork_hook, -1);
            rb_prepend_module(rb_singleton_class(rb_mProcess), hook);
        }
        rb_set_end_proc(report_at_exit, Qnil);
    }
    load_s = monotonic_s() - started_at;
    rb_define_const(probe, "NATIVE_LOAD_S", DBL2NUM(load_s));
}
