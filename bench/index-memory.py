#!/usr/bin/env python3
"""The permanent memory of the second series' by-address index, per module.

Usage: bench/index-memory.py [--no-kallsyms-all] [--no-module-unload]
                              [--summary] KO...|-

For each x86_64 (ELF64 little-endian) module file (.ko or .ko.xz), counts from its symtab
what layout_symtab() of patches/7.3/kallsyms-index counts when the module is
loaded: the entries add_kallsyms() copies to the core symtab
(is_core_symbol()) that may_index() takes (defined, named, not a mapping
symbol, not SHN_LIVEPATCH). When there are at least MOD_KALLSYMS_MIN_INDEX
of them, the core index reserves 4 bytes each in the module's data, kept
until the module is unloaded. Prints a tab-separated line per module:
name, symtab entries, core symtab entries, indexed core symbols, index
bytes, and the module's core bytes (its core sections, by size and
alignment, and the core symtab, strtab and typetab, before the page
rounding of module memory), then the index's share of them. With
--summary, only totals over all the modules: how many get an index, the
index bytes in all and the share of the core bytes in all, and the
distribution of the index bytes per module. "-" reads the files' paths
from standard input, one per line.

The kernel config decides two things: CONFIG_KALLSYMS_ALL (data and
per-cpu symbols are copied too; Debian's kernels have it) and
CONFIG_MODULE_UNLOAD (.exit sections are core memory; Debian's too). A
livepatch module (modinfo livepatch=Y) copies every entry.

This is a model of the kernel's rule, read from the module files; the
benchmark (bench/run.sh) measures the memory of the modules it loads.
"""
import argparse
import lzma
import os
import struct
import sys

SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4
SHN_UNDEF, SHN_LIVEPATCH = 0, 0xFF20
SHT_SYMTAB = 2
MIN_INDEX = 32  # MOD_KALLSYMS_MIN_INDEX
SYM_SIZE = 24  # sizeof(Elf64_Sym)
# The sections whose SHF_ALLOC the loader clears before it lays the
# module out (setup_load_info(), rewrite_section_headers()).
NOT_LOADED = ("__versions", "__version_ext_crcs", "__version_ext_names",
              ".modinfo")
PCPU = ".data..percpu"


def die(msg):
    sys.exit(f"{sys.argv[0]}: {msg}")


def cstr(blob, off):
    end = blob.find(b"\0", off)
    return blob[off:end if end >= 0 else len(blob)].decode("latin-1")


def sections(elf):
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise ValueError("not an ELF64 little-endian file")
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
    for s in secs:
        s["name"] = cstr(elf[strs["off"]:strs["off"] + strs["size"]],
                         s["name"])
    return secs


def is_livepatch(elf, secs):
    for s in secs:
        if s["name"] == ".modinfo":
            info = elf[s["off"]:s["off"] + s["size"]].split(b"\0")
            return b"livepatch=Y" in info
    return False


def is_mapping_symbol(name):
    return name.startswith((".L", "L0", "$"))


def is_init(name, module_unload):
    return name.startswith(".init") or \
        (not module_unload and name.startswith(".exit"))


def count(path, kallsyms_all, module_unload):
    opener = lzma.open if path.endswith(".xz") else open
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
    core = 0
    for s in secs:
        if s["flags"] & SHF_ALLOC and not is_init(s["name"], module_unload):
            align = max(s["align"], 1)
            core = (core + align - 1) // align * align + s["size"]
    # The core symtab, its strtab and typetab (layout_symtab()), the index.
    core = (core + 7) // 8 * 8 + ncore * SYM_SIZE + strsize + ncore
    core = (core + 3) // 4 * 4 + index
    return nsym, ncore, indexed, index, core


def summary(rows):
    """Totals over all modules, and quantiles of the index per module."""
    indexed = sorted(r[4] for r in rows if r[4])
    index = sum(indexed)
    core = sum(r[5] for r in rows)

    def q(f):
        return indexed[min(len(indexed) - 1, int(f * len(indexed)))]

    print(f"modules\t{len(rows)}")
    print(f"with an index (at least {MIN_INDEX} indexed symbols)\t"
          f"{len(indexed)}")
    print(f"index bytes in all\t{index}")
    print(f"core bytes in all\t{core}")
    print(f"index share of core bytes\t{100.0 * index / core:.2f}%")
    if indexed:
        print(f"index bytes per module with one: median\t{q(0.5)}")
        print(f"index bytes per module with one: 90th percentile\t"
              f"{q(0.9)}")
        print(f"index bytes per module with one: largest\t{indexed[-1]}")
        small = [b for b in indexed if b < 1024]
        print(f"modules with an index under 1 KiB (fewer than 256 "
              f"symbols)\t{len(small)}, {sum(small)} bytes in all")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-kallsyms-all", action="store_true")
    p.add_argument("--no-module-unload", action="store_true")
    p.add_argument("--summary", action="store_true")
    p.add_argument("ko", nargs="+")
    a = p.parse_args()
    if a.ko == ["-"]:
        a.ko = sys.stdin.read().splitlines()
    rows = []
    for ko in a.ko:
        try:
            nsym, ncore, indexed, index, core = count(
                ko, not a.no_kallsyms_all, not a.no_module_unload)
        except (OSError, ValueError, struct.error, lzma.LZMAError) as e:
            die(f"{ko}: {e}")
        name = os.path.basename(ko).split(".ko")[0].replace("-", "_")
        rows.append((name, nsym, ncore, indexed, index, core))
    if a.summary:
        summary(rows)
        return
    print("module\tsymtab\tcore symtab\tindexed\tindex bytes\tcore bytes\t"
          "index share")
    for name, nsym, ncore, indexed, index, core in rows:
        print(f"{name}\t{nsym}\t{ncore}\t{indexed}\t{index}\t{core}\t"
              f"{100.0 * index / core:.1f}%")


if __name__ == "__main__":
    main()
