#!/usr/bin/env python3
"""Plants three mismatches in a copy of the display-only sample
(tests/fixtures/kmdod/src) and prints where check-driver must report each,
one line a finding: FILE LINE KIND ARCHS (archs: all, or x86 for a calling
convention, which is one convention on x64 and arm64). They are the ones a
port of a real display-only driver showed: two SAL annotations that differ
from dispmprt.h's, and a d3dkmddi.h DDI defined without APIENTRY, which
the hand-written table hides with a cast. Each edit must apply exactly
once. The sample itself is never changed: edits are made to the copy."""
import sys

src = sys.argv[1]


def edit(name, old, new, count=1):
    path = f"{src}/{name}"
    text = open(path).read()
    if text.count(old) != count:
        sys.exit(f"plant.py: {name}: expected {count} time(s): {old!r}")
    open(path, "w").write(text.replace(old, new))


def line_of(name, needle, after=None):
    lines = open(f"{src}/{name}").read().split("\n")
    start = next(i for i, l in enumerate(lines) if after in l) if after else 0
    return next(i for i, l in enumerate(lines) if i >= start and needle in l) + 1


# 1. SAL: the child relations buffer written as output only, where
#    DXGKDDI_QUERY_CHILD_RELATIONS has _Inout_updates_bytes_ (dxgkrnl
#    zeroed it and reads the terminator back). Declaration and definition.
edit("bdd.h", "                                   _Inout_updates_bytes_(ChildRelationsSize) DXGK_CHILD_DESCRIPTOR*",
     "                                   _Out_writes_bytes_(ChildRelationsSize) DXGK_CHILD_DESCRIPTOR*")
edit("bdd_ddi.cpp", "                                   _Inout_updates_bytes_(ChildRelationsSize) DXGK_CHILD_DESCRIPTOR*",
     "                                   _Out_writes_bytes_(ChildRelationsSize) DXGK_CHILD_DESCRIPTOR*")

# 2. SAL: the system display's source image as a plain _In_ pointer, where
#    DXGKDDI_SYSTEM_DISPLAY_WRITE says how many bytes it reads.
edit("bdd.h", "_In_reads_bytes_(SourceHeight * SourceStride) PVOID Source", "_In_ PVOID Source")
edit("bdd_ddi.cpp", "_In_reads_bytes_(SourceHeight * SourceStride) PVOID Source", "_In_ PVOID Source")

# 3. Calling convention: PresentDisplayOnly declared and defined without
#    APIENTRY (so __cdecl on x86, where DXGKDDI_PRESENTDISPLAYONLY is
#    __stdcall), put in the table through a cast.
edit("bdd.h", "NTSTATUS APIENTRY BddDdiPresentDisplayOnly(", "NTSTATUS BddDdiPresentDisplayOnly(")
edit("bdd_ddi.cpp", "NTSTATUS APIENTRY BddDdiPresentDisplayOnly(", "NTSTATUS BddDdiPresentDisplayOnly(")
edit("bdd_ddi.cpp", "InitialData.DxgkDdiPresentDisplayOnly = BddDdiPresentDisplayOnly;",
     "InitialData.DxgkDdiPresentDisplayOnly = (PDXGKDDI_PRESENTDISPLAYONLY)BddDdiPresentDisplayOnly;")

# Where each is reported, once every edit is made.
print("bdd_ddi.cpp", line_of("bdd_ddi.cpp", "ChildRelations,", "NTSTATUS BddDdiQueryChildRelations("), "sal-mismatch", "all")
print("bdd_ddi.cpp", line_of("bdd_ddi.cpp", "PVOID Source,", "VOID BddDdiSystemDisplayWrite("), "sal-mismatch", "all")
print("bdd_ddi.cpp", line_of("bdd_ddi.cpp", "NTSTATUS BddDdiPresentDisplayOnly("), "callconv-mismatch", "x86")
