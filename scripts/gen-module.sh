#!/usr/bin/env bash
# Generate the C sources and Kbuild file of a test module.
#
# Usage: scripts/gen-module.sh bench NAME NFUNCS DIR [NDATA]
#        scripts/gen-module.sh weak NAME DIR [--live-first]
#        scripts/gen-module.sh warn NAME DIR
#        scripts/gen-module.sh many NAME COUNT DIR
#        scripts/gen-module.sh symprint NAME DIR
#        scripts/gen-module.sh odd-callback NAME DIR
#
# bench: NFUNCS one-line global functions, each with NDATA (default 1)
#   static data symbols, split over files of 1,000 functions. With call padding every function
#   also gets a __pfx_ symbol, so the symtab looks like a real module's:
#   functions, padding symbols and data.
# weak: weak functions in one object file, strong overrides of some of them
#   in another, plain functions and init text functions. The fentry sites of
#   the overridden weak functions stay in __mcount_loc with no symbol of
#   their own. DIR/expect.live lists the functions that must be traceable
#   after init, DIR/expect.dead the number of dead sites. The first
#   function of the text is an overridden weak one (a dead site with no
#   symbol before it), unless --live-first puts a live one ahead: the objtool
#   of 6.12 warns about dead code at the start of a section.
# warn: a module whose init WARN()s once and loads: the control that shows
#   a kernel prints warnings and the checks see them.
# many: COUNT small modules NAME_1 ... NAME_COUNT, built by one Kbuild file,
#   the i-th with 10 + (7 i mod 41) one-line functions (10 to 50), one data
#   symbol each; DIR/NAME.list names them in order.
# symprint: loaded with target=ADDRESS, the address of another module's
#   __this_module (from /proc/kallsyms), it names every byte of that
#   module's core memory with sprint_symbol() (what %pS prints) and
#   shows it in /proc/NAME, one line per run of bytes one symbol names:
#   "TYPE+OFFSET NAME/SIZE [MODULE]@SYMBOL-OFFSET" (TYPE: enum
#   mod_mem_type; OFFSET from the region's base; "-" where no symbol
#   names the byte).
# odd-callback: an ftrace_ops, filtered on the module's own NAME_target(),
#   whose callback NAME_odd_func starts one byte past a 16-byte boundary
#   (an odd address; the byte before it is an int3) and counts its calls
#   in the parameter "calls"; writing the parameter "call" runs
#   NAME_target(). The ops has FTRACE_OPS_FL_PID, so a write to
#   set_ftrace_pid patches the call in its trampoline again
#   (arch_ftrace_update_trampoline()): with the x86 bug of fixes/7.3 that
#   call becomes a jmp to the int3.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

PER_FILE=1000

gen_bench_file() {
	local name=$1 first=$2 last=$3 ndata=$4
	awk -v n="$name" -v a="$first" -v b="$last" -v d="$ndata" 'BEGIN {
		print "// SPDX-License-Identifier: GPL-2.0"
		print "#include <linux/compiler.h>"
		for (i = a; i <= b; i++) {
			printf "static int %s_data_%d __used = %d;\n", n, i, i
			for (j = 1; j < d; j++)
				printf "static int %s_data_%d_%d __used = %d;\n", n, i, j, j
			printf "int %s_fn_%d(int x);\n", n, i
			printf "int %s_fn_%d(int x)\n{\n\treturn x * %d + %s_data_%d;\n}\n", n, i, i % 97 + 2, n, i
		}
	}'
}

gen_bench() {
	local name=$1 nfuncs=$2 dir=$3 ndata=$4 first objs="" f=0
	[[ $nfuncs =~ ^[1-9][0-9]*$ ]] || die "NFUNCS must be a positive number, not '$nfuncs'"
	[[ $ndata =~ ^[1-9][0-9]*$ ]] || die "NDATA must be a positive number, not '$ndata'"
	for ((first = 0; first < nfuncs; first += PER_FILE)); do
		gen_bench_file "$name" "$first" $((first + PER_FILE < nfuncs ? first + PER_FILE - 1 : nfuncs - 1)) "$ndata" \
			>"$dir/${name}_$f.c"
		objs+=" ${name}_$f.o"
		f=$((f + 1))
	done
	cat >"$dir/${name}_main.c" <<EOC
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftrace-modsyms benchmark module, $nfuncs functions");
EOC
	printf 'obj-m := %s.o\n%s-y := %s_main.o%s\n' "$name" "$name" "$name" "$objs" >"$dir/Kbuild"
}

# Weak functions: WEAK of them, the even ones overridden in the strong file.
WEAK=12
PLAIN=8
INIT=3

gen_weak() {
	local name=$1 dir=$2 live_first=$3 i
	{
		echo '// SPDX-License-Identifier: GPL-2.0'
		echo '#include <linux/compiler.h>'
		echo '#include "weak.h"'
		[ "$live_first" = 0 ] ||
			printf 'int %s_lead(int x)\n{\n\treturn x + 100;\n}\n' "$name"
		for ((i = 0; i < WEAK; i++)); do
			printf '__weak int %s_hook_%d(int x)\n{\n\treturn x + %d;\n}\n' "$name" "$i" "$i"
		done
		for ((i = 0; i < PLAIN; i++)); do
			printf 'int %s_plain_%d(int x)\n{\n\treturn %s_hook_%d(x) * 3;\n}\n' "$name" "$i" "$name" $((i % WEAK))
		done
	} >"$dir/${name}_weak.c"
	{
		echo '// SPDX-License-Identifier: GPL-2.0'
		echo '#include <linux/compiler.h>'
		echo '#include "weak.h"'
		for ((i = 0; i < WEAK; i += 2)); do
			printf 'int %s_hook_%d(int x)\n{\n\treturn x - %d;\n}\n' "$name" "$i" "$i"
		done
	} >"$dir/${name}_strong.c"
	{
		[ "$live_first" = 0 ] || printf 'int %s_lead(int x);\n' "$name"
		for ((i = 0; i < WEAK; i++)); do
			printf 'int %s_hook_%d(int x);\n' "$name" "$i"
		done
		for ((i = 0; i < PLAIN; i++)); do
			printf 'int %s_plain_%d(int x);\n' "$name" "$i"
		done
	} >"$dir/weak.h"
	{
		echo '// SPDX-License-Identifier: GPL-2.0'
		echo '#include <linux/init.h>'
		echo '#include <linux/module.h>'
		echo '#include "weak.h"'
		for ((i = 0; i < INIT; i++)); do
			printf 'static noinline int __init %s_setup_%d(int x)\n{\n\treturn %s_plain_%d(x);\n}\n' \
				"$name" "$i" "$name" "$i"
		done
		printf 'static int __init %s_init(void)\n{\n\tint r = 0;\n\n' "$name"
		for ((i = 0; i < INIT; i++)); do
			printf '\tr += %s_setup_%d(%d);\n' "$name" "$i" "$i"
		done
		printf '\treturn r < 0 ? r : 0;\n}\nmodule_init(%s_init);\n\n' "$name"
		printf 'static void __exit %s_exit(void)\n{\n}\nmodule_exit(%s_exit);\n' "$name" "$name"
		echo 'MODULE_LICENSE("GPL");'
		echo 'MODULE_DESCRIPTION("ftrace-modsyms test module with overridden weak functions");'
	} >"$dir/${name}_main.c"
	printf 'obj-m := %s.o\n%s-y := %s_weak.o %s_strong.o %s_main.o\n' \
		"$name" "$name" "$name" "$name" "$name" >"$dir/Kbuild"
	# Traceable after init: every hook (strong or weak survivor) and every
	# plain function (__exit is notrace, init text is gone). Dead: the
	# overridden weak hooks.
	{
		[ "$live_first" = 0 ] || printf '%s_lead\n' "$name"
		for ((i = 0; i < WEAK; i++)); do printf '%s_hook_%d\n' "$name" "$i"; done
		for ((i = 0; i < PLAIN; i++)); do printf '%s_plain_%d\n' "$name" "$i"; done
	} | sort >"$dir/expect.live"
	echo $(((WEAK + 1) / 2)) >"$dir/expect.dead"
}

gen_many() {
	local name=$1 count=$2 dir=$3 i n
	[[ $count =~ ^[1-9][0-9]*$ ]] || die "COUNT must be a positive number, not '$count'"
	: >"$dir/Kbuild"
	: >"$dir/$name.list"
	for ((i = 1; i <= count; i++)); do
		n=$((10 + 7 * i % 41))
		{
			gen_bench_file "${name}_$i" 0 $((n - 1)) 1
			echo '#include <linux/module.h>'
			echo 'MODULE_LICENSE("GPL");'
			echo "MODULE_DESCRIPTION(\"ftrace-modsyms small module, $n functions\");"
		} >"$dir/${name}_$i.c"
		echo "obj-m += ${name}_$i.o" >>"$dir/Kbuild"
		echo "${name}_$i" >>"$dir/$name.list"
	done
}

gen_warn() {
	local name=$1 dir=$2
	cat >"$dir/$name.c" <<EOC
// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/init.h>
#include <linux/module.h>

static int __init ${name}_init(void)
{
	WARN(1, "$name: this warning is the control of the test, on purpose\\n");
	return 0;
}
module_init(${name}_init);

static void __exit ${name}_exit(void)
{
}
module_exit(${name}_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftrace-modsyms control: warns once when loaded");
EOC
	printf 'obj-m := %s.o\n' "$name" >"$dir/Kbuild"
}

gen_symprint() {
	local name=$1 dir=$2
	cat >"$dir/$name.c" <<EOC
// SPDX-License-Identifier: GPL-2.0
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

static unsigned long target;
module_param(target, ulong, 0400);
MODULE_PARM_DESC(target, "address of the __this_module of the module to name");

#define OUT_MAX (32 << 20)
static char *out;
static size_t len;
static bool full;

static void emit(int type, unsigned long i, const char *key, unsigned long off)
{
	int n;

	if (full)
		return;
	n = snprintf(out + len, OUT_MAX - len, "%d+%lx %s@%lx\\n", type, i, key, off);
	if (n >= OUT_MAX - len)
		full = true;
	else
		len += n;
}

/* A line per run of bytes of region @type of @mod that one symbol names. */
static void name_region(struct module *mod, int type)
{
	unsigned long base = (unsigned long)mod->mem[type].base;
	unsigned long size = mod->mem[type].size, i, off, next = 0;
	static char buf[KSYM_SYMBOL_LEN], key[KSYM_SYMBOL_LEN];
	char *plus, *slash;

	key[0] = '\\0';
	for (i = 0; i < size; i++) {
		sprint_symbol(buf, base + i);
		plus = strrchr(buf, '+');
		off = 0;
		if (plus) {
			off = simple_strtoul(plus + 1, &slash, 16);
			memmove(plus, slash, strlen(slash) + 1);
		} else {
			strscpy(buf, "-", sizeof(buf));
		}
		if (strcmp(buf, key) || (plus && off != next)) {
			emit(type, i, buf, off);
			strscpy(key, buf, sizeof(key));
		}
		next = off + 1;
		if (!(i & 4095))
			cond_resched();
	}
}

static int ${name}_show(struct seq_file *m, void *v)
{
	seq_write(m, out, len);
	return 0;
}

static int __init ${name}_init(void)
{
	struct module *mod = (struct module *)target;

	if (!target || !try_module_get(mod))
		return -EINVAL;
	out = vmalloc(OUT_MAX);
	if (!out) {
		module_put(mod);
		return -ENOMEM;
	}
	for_class_mod_mem_type(type, core)
		name_region(mod, type);
	module_put(mod);
	if (full || !proc_create_single("$name", 0400, NULL, ${name}_show)) {
		vfree(out);
		return full ? -E2BIG : -ENOMEM;
	}
	return 0;
}
module_init(${name}_init);

static void __exit ${name}_exit(void)
{
	remove_proc_entry("$name", NULL);
	vfree(out);
}
module_exit(${name}_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftrace-modsyms check: what sprint_symbol() names each byte of a module");
EOC
	printf 'obj-m := %s.o\n' "$name" >"$dir/Kbuild"
}

gen_odd_callback() {
	local name=$1 dir=$2
	cat >"$dir/$name.c" <<EOC
// SPDX-License-Identifier: GPL-2.0
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static int calls;
module_param(calls, int, 0444);
MODULE_PARM_DESC(calls, "how many times the callback ran");

void ${name}_count(unsigned long ip, unsigned long parent_ip,
		   struct ftrace_ops *op, struct ftrace_regs *fregs);
void ${name}_odd_func(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs);

notrace void ${name}_count(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	WRITE_ONCE(calls, READ_ONCE(calls) + 1);
}

/*
 * The callback the ops names: at an odd address, one byte past a 16-byte
 * boundary, it goes on to ${name}_count(). A jmp to its address with bit 0
 * cleared lands on the int3 before it.
 */
asm(".pushsection .text, \"ax\"\n"
    ".balign 16\n"
    "int3\n"
    ".globl ${name}_odd_func\n"
    ".type ${name}_odd_func, @function\n"
    "${name}_odd_func:\n"
    "endbr64\n"
    "jmp ${name}_count\n"
    ".size ${name}_odd_func, . - ${name}_odd_func\n"
    ".popsection\n");

/* A store the compiler keeps: the function and its call stay. */
static noinline void ${name}_target(void)
{
	WRITE_ONCE(calls, READ_ONCE(calls));
}

static int ${name}_call_set(const char *val, const struct kernel_param *kp)
{
	${name}_target();
	return 0;
}

static const struct kernel_param_ops ${name}_call_ops = {
	.set = ${name}_call_set,
};
module_param_cb(call, &${name}_call_ops, NULL, 0200);
MODULE_PARM_DESC(call, "write anything: run ${name}_target()");

static struct ftrace_ops ${name}_ops = {
	.func = ${name}_odd_func,
	.flags = FTRACE_OPS_FL_PID,
};

static unsigned char ${name}_filter[] = "${name}_target";

static int __init ${name}_init(void)
{
	int ret;

	pr_info("${name}: callback at %px\n", ${name}_odd_func);
	ret = ftrace_set_filter(&${name}_ops, ${name}_filter,
				sizeof(${name}_filter) - 1, 1);
	if (ret)
		return ret;
	ret = register_ftrace_function(&${name}_ops);
	if (ret)
		ftrace_free_filter(&${name}_ops);
	return ret;
}
module_init(${name}_init);

static void __exit ${name}_exit(void)
{
	unregister_ftrace_function(&${name}_ops);
	ftrace_free_filter(&${name}_ops);
}
module_exit(${name}_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftrace-modsyms check: an ftrace callback at an odd address");
EOC
	printf 'obj-m := %s.o\n' "$name" >"$dir/Kbuild"
}

main() {
	[ $# -ge 1 ] || die "usage: $0 bench NAME NFUNCS DIR [NDATA] | weak NAME DIR [--live-first] | warn NAME DIR | many NAME COUNT DIR | symprint NAME DIR | odd-callback NAME DIR"
	local kind=$1
	shift
	case $kind in
	bench)
		[ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: $0 bench NAME NFUNCS DIR [NDATA]"
		mkdir -p "$3"
		gen_bench "$1" "$2" "$3" "${4:-1}"
		;;
	weak)
		case $# in
		2) mkdir -p "$2" && gen_weak "$1" "$2" 0 ;;
		3) [ "$3" = --live-first ] || die "usage: $0 weak NAME DIR [--live-first]"
			mkdir -p "$2" && gen_weak "$1" "$2" 1 ;;
		*) die "usage: $0 weak NAME DIR [--live-first]" ;;
		esac
		;;
	warn)
		[ $# -eq 2 ] || die "usage: $0 warn NAME DIR"
		mkdir -p "$2" && gen_warn "$1" "$2"
		;;
	many)
		[ $# -eq 3 ] || die "usage: $0 many NAME COUNT DIR"
		mkdir -p "$3" && gen_many "$1" "$2" "$3"
		;;
	symprint)
		[ $# -eq 2 ] || die "usage: $0 symprint NAME DIR"
		mkdir -p "$2" && gen_symprint "$1" "$2"
		;;
	odd-callback)
		[ $# -eq 2 ] || die "usage: $0 odd-callback NAME DIR"
		mkdir -p "$2" && gen_odd_callback "$1" "$2"
		;;
	*) die "unknown module kind '$kind' (bench, weak, warn, many, symprint or odd-callback)" ;;
	esac
}

main "$@"
