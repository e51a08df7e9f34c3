<?xml version="1.0"?>
<!-- STAND-IN for the validate family (issue 12 writes the real template):
     the contract's declarations only, so tests/package can prove that a
     family's templates slot into ddigen_generate() and examples/refdriver
     by name. Not installed, not a product template. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text"/>
<xsl:template match="/">/* ddi_validate.h: stand-in validators (tests/package), <xsl:value-of select="count(//record)"/> records in the spec. */
#ifndef DDI_VALIDATE_H
#define DDI_VALIDATE_H
#include "ddi_violation.h"
#define DDI_VALIDATE_STOP_AT_FIRST 1ul
#define DDI_HAS_ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in 1
unsigned long ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(const DXGKARG_BUILDPAGINGBUFFER *a, ddi_violation *first,
                                                        unsigned long flags);
#endif
</xsl:template>
</xsl:stylesheet>
