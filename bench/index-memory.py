#!/usr/bin/env python3
"""The permanent memory of the second series' by-address index, per module.

Usage: bench/index-memory.py [--no-kallsyms-all] [--no-module-unload]
                              [--summary] KO...|-

For each x86_64 module file (.ko, .ko.xz or .ko.gz), counts from its
symtab what layout_symtab() of patches/7.3/kallsyms-index counts when the
module is loaded: the entries add_kallsyms() copies to the core symtab
(is_core_symbol()) that may_index() takes (defined, named, not a mapping
symbol, not SHN_LIVEPATCH). When there are at least MOD_KALLSYMS_MIN_INDEX
of them, the core index reserves 4 bytes each (slots) at the end of the
module's data, kept until the module is unloaded; per-cpu symbols get a
slot too, but are never indexed (their values are not in module memory).

It also lays the module out as the loader does (layout_sections(),
layout_symtab(): the core sections in the text, rodata, ro_after_init
and data regions, by flags, in section order, each at its alignment; the
core symtab, strtab, typetab and index after the data) and rounds each
region to pages as module_memory_alloc() does: core bytes are what
/sys/module/NAME/coresize shows, and the index's pages the growth of the
data region that the index causes (0 or a page or more).

Prints a tab-separated line per module: name, symtab entries, core
symtab entries, index slots, index bytes, index pages (bytes), core
bytes, the index bytes' and the index pages' share of the core bytes.
With --summary, only totals over all the modules, as if all were loaded.
"-" reads the files' paths from standard input, one per line.

The kernel config decides two things: CONFIG_KALLSYMS_ALL (data and
per-cpu symbols are copied too; Debian's kernels have it) and
CONFIG_MODULE_UNLOAD (.exit sections are core memory; Debian's too). A
livepatch module (one with a livepatch modinfo tag) copies every entry.
Not modelled: CONFIG_MEM_ALLOC_PROFILING's tags section, which the
loader places outside module memory (counted here as core data), and
other arches' layout rules.

This is a model of the kernel's rule, read from the module files; the
benchmark (bench/run.sh) measures the memory of the modules it loads.
"""
import argparse
import gzip
import lzma
import math
import os
import struct
import sys

SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4
SHF_RO_AFTER_INIT = 0x00200000  # the kernel's own flag (module.h)
ET_REL, EM_X86_64 = 1, 62
PAGE_SIZE = 4096
SHN_UNDEF, SHN_LIVEPATCH = 0, 0xFF20
SHT_SYMTAB = 2
MIN_INDEX = 32  # MOD_KALLSYMS_MIN_INDEX
SYM_SIZE = 24  # sizeof(Elf64_Sym)
# The sections whose SHF_ALLOC the loader clears before it lays the
# module out (setup_load_info(), rewrite_section_headers()).
NOT_LOADED = ("__versions", "__version_ext_crcs", "__version_ext_names",
              ".modinfo")
PCPU = ".data..percpu"
# The sections module_mark_ro_after_init() marks (x86_64, whose
# HAVE_STATIC_CALL_INLINE adds .static_call_sites).
RO_AFTER_INIT = (".data..ro_after_init", "__jump_table", ".static_call_sites")
# layout_sections()'s masks (required flags, excluded flags) for the core
# regions, in its order; ARCH_SHF_SMALL is 0 on x86.
CORE_MASKS = (
    ("text", SHF_EXECINSTR | SHF_ALLOC, 0),
    ("rodata", SHF_ALLOC, SHF_WRITE),
    ("ro_after_init", SHF_RO_AFTER_INIT | SHF_ALLOC, 0),
    ("data", SHF_WRITE | SHF_ALLOC, 0),
    ("data", SHF_ALLOC, 0),
)


def die(msg):
    sys.exit(f"{sys.argv[0]}: {msg}")


def cstr(blob, off):
    end = blob.find(b"\0", off)
    return blob[off:end if end >= 0 else len(blob)].decode("latin-1")


def align(n, a):
    a = max(a, 1)
    return (n + a - 1) // a * a


def sections(elf):
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise ValueError("not an ELF64 little-endian file")
    etype, machine = struct.unpack_from("<HH", elf, 0x10)
    if etype != ET_REL or machine != EM_X86_64:
        raise ValueError("not an x86_64 module (relocatable object)")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    secs = []
    for i in range(shnum):
        (name, stype, flags, _addr, off, size, link, _info, align,
         _entsize) = struct.unpack_from("<IIQQQQIIQQ", elf,
                                        shoff + i * shentsize)
        secs.append(dict(name=name, type=stype, flags=flags, off=off,
                         size=size, link=link, align=align))
    strs = secs[shstrndx]
    names = elf[strs["off"]:strs["off"] + strs["size"]]
    for s in secs:
        s["name"] = cstr(names, s["name"])
    return secs


def is_livepatch(elf, secs):
    for s in secs:
        if s["name"] == ".modinfo":
            info = elf[s["off"]:s["off"] + s["size"]].split(b"\0")
            return any(i.startswith(b"livepatch=") for i in info)
    return False


def is_mapping_symbol(name):
    return name.startswith((".L", "L0", "$"))


def is_init(name, module_unload):
    return name.startswith(".init") or \
        (not module_unload and name.startswith(".exit"))


def count(path, kallsyms_all, module_unload):
    opener = lzma.open if path.endswith(".xz") else \
        gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        elf = f.read()
    secs = sections(elf)
    symtabs = [s for s in secs if s["type"] == SHT_SYMTAB]
    if len(symtabs) != 1:
        raise ValueError(f"{len(symtabs)} symtabs")
    symsec = symtabs[0]
    strsec = secs[symsec["link"]]
    strtab = elf[strsec["off"]:strsec["off"] + strsec["size"]]
    livepatch = is_livepatch(elf, secs)
    for s in secs:
        if s["name"] in NOT_LOADED or s["name"] == PCPU:
            s["flags"] &= ~SHF_ALLOC
        if s["name"] in RO_AFTER_INIT:
            s["flags"] |= SHF_RO_AFTER_INIT

    def is_core(shndx, st_name):
        if shndx == SHN_UNDEF or shndx >= len(secs) or not st_name:
            return False
        sec = secs[shndx]
        if kallsyms_all and sec["name"] == PCPU:
            return True
        if not sec["flags"] & SHF_ALLOC:
            return False
        if not kallsyms_all and not sec["flags"] & SHF_EXECINSTR:
            return False
        return not is_init(sec["name"], module_unload)

    nsym = symsec["size"] // SYM_SIZE
    ncore = indexed = strsize = 0
    for i in range(nsym):
        st_name, _info, _other, shndx = struct.unpack_from(
            "<IBBH", elf, symsec["off"] + i * SYM_SIZE)
        name = cstr(strtab, st_name)
        if not (i == 0 or livepatch or is_core(shndx, st_name)):
            continue
        ncore += 1
        strsize += len(name) + 1
        if i and shndx not in (SHN_UNDEF, SHN_LIVEPATCH) and name and \
                not is_mapping_symbol(name):
            indexed += 1
    index = indexed * 4 if indexed >= MIN_INDEX else 0
    regions = {"text": 0, "rodata": 0, "ro_after_init": 0, "data": 0}
    placed = set()
    for region, want, exclude in CORE_MASKS:
        for i, s in enumerate(secs):
            if i in placed or s["flags"] & want != want or \
                    s["flags"] & exclude or \
                    is_init(s["name"], module_unload):
                continue
            placed.add(i)
            regions[region] = align(regions[region], s["align"]) + s["size"]
    # layout_symtab(): the core symtab, its strtab and typetab, the index.
    data = align(regions["data"], symsec["align"]) + ncore * SYM_SIZE + \
        strsize + ncore
    regions["data"] = align(data, 4) + index if index else data
    core = sum(align(size, PAGE_SIZE) for size in regions.values())
    pages = align(regions["data"], PAGE_SIZE) - align(data, PAGE_SIZE)
    return nsym, ncore, indexed, index, pages, core


def nearest_rank(values, f):
    """The value of rank ceil(f * n) of the sorted VALUES."""
    return values[max(0, math.ceil(len(values) * f) - 1)] if values else 0


def summary(rows):
    """Totals over all modules, as if all were loaded."""
    sizes = sorted(r[4] for r in rows if r[4])
    index = sum(sizes)
    pages = sum(r[5] for r in rows)
    core = sum(r[6] for r in rows)
    small = [b for b in sizes if b < 1024]
    print(f"modules\t{len(rows)}")
    print(f"with an index (at least {MIN_INDEX} slots)\t{len(sizes)}")
    print(f"index bytes in all\t{index} ({100.0 * index / core:.2f}% of "
          f"the core bytes)")
    print(f"index pages in all (the data regions' growth)\t{pages} "
          f"({100.0 * pages / core:.2f}%; "
          f"{sum(1 for r in rows if r[5])} modules grow by a page or more)")
    print(f"core bytes in all (page-rounded regions)\t{core}")
    print(f"index bytes of a module with one: median\t"
          f"{nearest_rank(sizes, 0.5)}")
    print(f"index bytes of a module with one: 90th percentile\t"
          f"{nearest_rank(sizes, 0.9)}")
    print(f"index bytes of a module with one: largest\t"
          f"{sizes[-1] if sizes else 0}")
    print(f"modules with an index under 1 KiB (fewer than 256 slots)\t"
          f"{len(small)}, {sum(small)} bytes in all")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-kallsyms-all", action="store_true")
    p.add_argument("--no-module-unload", action="store_true")
    p.add_argument("--summary", action="store_true")
    p.add_argument("ko", nargs="+")
    a = p.parse_args()
    if a.ko == ["-"]:
        a.ko = sys.stdin.read().splitlines()
    if not a.ko:
        die("no module files")
    rows = []
    for ko in a.ko:
        try:
            row = count(ko, not a.no_kallsyms_all, not a.no_module_unload)
        except (OSError, ValueError, EOFError, struct.error,
                lzma.LZMAError) as e:
            die(f"{ko}: {e}")
        name = os.path.basename(ko).split(".ko")[0].replace("-", "_")
        rows.append((name,) + row)
    if a.summary:
        summary(rows)
        return
    print("module\tsymtab\tcore symtab\tindex slots\tindex bytes\t"
          "index pages\tcore bytes\tindex bytes share\tindex pages share")
    for name, nsym, ncore, slots, index, pages, core in rows:
        print(f"{name}\t{nsym}\t{ncore}\t{slots}\t{index}\t{pages}\t{core}\t"
              f"{100.0 * index / core:.1f}%\t{100.0 * pages / core:.1f}%")


if __name__ == "__main__":
    main()
