#!/usr/bin/env python3
"""Plants the four mismatches of tests/checkdriver/check_driver.sh in a copy
of the sample miniport and prints where each must be reported, one line per
finding: FILE LINE KIND ARCHS (archs: all, or x86 for a calling convention,
which is one on x64 and arm64). Each edit must apply exactly once."""
import sys

src = sys.argv[1]


def edit(name, old, new):
    path = f"{src}/{name}"
    text = open(path).read()
    if text.count(old) != 1:
        sys.exit(f"plant.py: {name}: expected once: {old!r}")
    open(path, "w").write(text.replace(old, new))


def line_of(name, needle, after=None):
    lines = open(f"{src}/{name}").read().split("\n")
    start = 0
    if after:
        start = next(i for i, l in enumerate(lines) if after in l)
    return next(i for i, l in enumerate(lines) if i >= start and needle in l) + 1


# 1. SAL: the definition spells _Out_ where DXGKDDI_QUERYCURRENTFENCE has _Inout_.
edit("hw_paging.cpp",
     "_Use_decl_annotations_\nNTSTATUS\nAPIENTRY\nHwQueryCurrentFence(\n"
     "    const HANDLE               hAdapter,\n    DXGKARG_QUERYCURRENTFENCE* pCurrentFence\n",
     "NTSTATUS\nAPIENTRY\nHwQueryCurrentFence(\n"
     "    _In_ const HANDLE               hAdapter,\n    _Out_ DXGKARG_QUERYCURRENTFENCE* pCurrentFence\n")

# 2. Calling convention: declared and defined without APIENTRY, put in the
#    table through a cast (the hand-written table that hides it).
edit("hw_driver.h", "DXGKDDI_PREEMPTCOMMAND              HwPreemptCommand;",
     "NTSTATUS HwPreemptCommand(const HANDLE hAdapter, const DXGKARG_PREEMPTCOMMAND* pPreemptCommand);")
edit("hw_driver.cpp", "HW_SET_DDI(DxgkDdiPreemptCommand, HwPreemptCommand);",
     "HW_SET_DDI(DxgkDdiPreemptCommand, (PDXGKDDI_PREEMPTCOMMAND)HwPreemptCommand);")
edit("hw_paging.cpp", "NTSTATUS\nAPIENTRY\nHwPreemptCommand(", "NTSTATUS\nHwPreemptCommand(")

# 3. Parameter type: const dropped from DXGKDDI_PATCH's argument (in C++ a
#    new overload, so it compiles; the table still names the declared one).
edit("hw_paging.cpp", "    const DXGKARG_PATCH* pPatch\n", "    DXGKARG_PATCH* pPatch\n")

# 4. Paging: HwIsSupportedVidPn (PASSIVE_LEVEL) in PAGE without PAGED_CODE();
#    HwRecommendFunctionalVidPn in PAGE with it is no finding.
edit("hw_vidpn.c", "#define HW_NATIVE_WIDTH",
     "#pragma alloc_text(PAGE, HwIsSupportedVidPn, HwRecommendFunctionalVidPn)\n\n#define HW_NATIVE_WIDTH")
edit("hw_vidpn.c", "    )\n{\n    PAGED_CODE();\n    UNREFERENCED_PARAMETER(hAdapter);\n    /* Every topology",
     "    )\n{\n    UNREFERENCED_PARAMETER(hAdapter);\n    /* Every topology")

# Where each is reported, once every edit is made (an edit moves the lines below it).
print("hw_paging.cpp", line_of("hw_paging.cpp", "pCurrentFence", "HwQueryCurrentFence("), "sal-mismatch", "all")
print("hw_paging.cpp", line_of("hw_paging.cpp", "HwPreemptCommand("), "callconv-mismatch", "x86")
print("hw_paging.cpp", line_of("hw_paging.cpp", "DXGKARG_PATCH* pPatch"), "param-type-mismatch", "all")
print("hw_vidpn.c", line_of("hw_vidpn.c", "HwIsSupportedVidPn(", "APIENTRY"), "paged-code-missing", "all")
