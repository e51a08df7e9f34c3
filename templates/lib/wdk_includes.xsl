<?xml version="1.0" encoding="UTF-8"?>
<!-- Shared by every template of a .c file (not rendered on its own): the
     WDK headers a generated translation unit starts with. The set itself is
     runtime/include/ddi_wdk.h (ntddk.h, then dispmprt.h), the runtime's
     too; a driver names its own header instead with DDIGEN_WDK_HEADER. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template name="wdk-includes">
    <xsl:text>#if defined(DDIGEN_WDK_HEADER)
#include DDIGEN_WDK_HEADER
#else
#include "ddi_wdk.h"
#endif
</xsl:text>
  </xsl:template>
</xsl:stylesheet>
