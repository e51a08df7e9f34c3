<?xml version="1.0"?>
<!-- STAND-IN for the validate family (see ddi_validate.h.xsl): one rule,
     FILL of zero bytes, with an ID no real rule has. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text"/>
<xsl:template match="/">/* ddi_validate.c: stand-in validators (tests/package). */
#include &lt;ntddk.h&gt;
#include &lt;d3dkmddi.h&gt;
#include "ddi_validate.h"

unsigned long ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(const DXGKARG_BUILDPAGINGBUFFER *a, ddi_violation *first,
                                                        unsigned long flags)
{
    (void)flags;
    if (a-&gt;Operation != DXGK_OPERATION_FILL || a-&gt;Fill.FillSize != 0)
        return 0;
    if (first) {
        first-&gt;rule_id = "standin.DXGKARG_BUILDPAGINGBUFFER.Fill.FillSize:nonzero";
        first-&gt;field = "Fill.FillSize";
        first-&gt;observed = 0;
    }
    return 1;
}
</xsl:template>
</xsl:stylesheet>
