<?xml version="1.0" encoding="UTF-8"?>
<!-- Makes a spec COPIES times larger: every top-level record and enum again
     under a suffixed name, so ddigen diff can be timed at several sizes. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:param name="copies" select="1"/>
  <xsl:output method="xml" encoding="UTF-8" indent="no"/>
  <xsl:template match="@*|node()">
    <xsl:param name="suffix" select="''"/>
    <xsl:copy>
      <xsl:apply-templates select="@*|node()"><xsl:with-param name="suffix" select="$suffix"/></xsl:apply-templates>
    </xsl:copy>
  </xsl:template>
  <xsl:template match="record/@name|enum/@name">
    <xsl:param name="suffix" select="''"/>
    <xsl:attribute name="name"><xsl:value-of select="concat(., $suffix)"/></xsl:attribute>
  </xsl:template>
  <xsl:template match="layout">
    <xsl:copy>
      <xsl:apply-templates select="@*|arch|version"/>
      <xsl:call-template name="copy">
        <xsl:with-param name="n" select="$copies"/>
      </xsl:call-template>
    </xsl:copy>
  </xsl:template>
  <xsl:template name="copy">
    <xsl:param name="n"/>
    <xsl:if test="$n > 0">
      <xsl:apply-templates select="record|enum|typedef|function-type">
        <xsl:with-param name="suffix" select="concat('_', $n)"/>
      </xsl:apply-templates>
      <xsl:call-template name="copy"><xsl:with-param name="n" select="$n - 1"/></xsl:call-template>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
