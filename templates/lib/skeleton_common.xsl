<?xml version="1.0" encoding="UTF-8"?>
<!-- Shared by the ddi_skeleton*.xsl templates (not rendered on its own).
     Which structure the driver kind fills, which of its members are
     callbacks, which of those exist at the chosen DDI version and are on
     the driver's list, and each callback's names, signature and IRQL.
     Everything comes from the spec: the members and their version gates
     from the kind's record, signatures from the function typedefs. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:d="urn:ddigen:xslt"
                xmlns:dv="urn:ddigen:view"
                exclude-result-prefixes="d dv">
  <!-- ddi-version: a short name (WDDM2_0) or the macro; default the newest.
       ddi-list: callback names separated by spaces ('all': every one).
       driver-kind: full (DRIVER_INITIALIZATION_DATA, DxgkInitialize) or
       display-only (KMDDOD_INITIALIZATION_DATA, DxgkInitializeDisplayOnlyDriver). -->
  <xsl:param name="ddi-version" select="''"/>
  <xsl:param name="ddi-list" select="'all'"/>
  <xsl:param name="driver-kind" select="'full'"/>

  <xsl:variable name="versions" select="/ddi-spec/layout/version"/>
  <xsl:key name="fn" match="/ddi-spec/layout/function-type" use="@name"/>
  <xsl:key name="typedef" match="/ddi-spec/layout/typedef" use="@name"/>
  <xsl:key name="record-by-tag" match="/ddi-spec/layout/record" use="@tag"/>
  <xsl:key name="record" match="/ddi-spec/layout/record" use="@name"/>
  <xsl:key name="page-with-irql" match="/ddi-spec/docs/page[@irql]" use="@name"/>

  <!-- The derived view (emit's view.c and skeleton_opts.c) marks the chosen
       version (dv:chosen), what exists at it (dv:at-chosen) and the
       callback members on the list (dv:listed). -->
  <xsl:variable name="chosen" select="$versions[@dv:chosen]"/>
  <xsl:variable name="kind-record-name">
    <xsl:choose>
      <xsl:when test="$driver-kind = 'display-only'">KMDDOD_INITIALIZATION_DATA</xsl:when>
      <xsl:otherwise>DRIVER_INITIALIZATION_DATA</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <xsl:variable name="initialize-call">
    <xsl:choose>
      <xsl:when test="$driver-kind = 'display-only'">DxgkInitializeDisplayOnlyDriver</xsl:when>
      <xsl:otherwise>DxgkInitialize</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <xsl:variable name="kind-record" select="/ddi-spec/layout/record[@name = $kind-record-name]"/>
  <!-- Members whose type is a pointer to a function typedef (PDXGKDDI_X). -->
  <xsl:variable name="callbacks" select="$kind-record/field[key('fn', @type)/@pointer-to]"/>
  <xsl:variable name="list" select="concat(' ', normalize-space($ddi-list), ' ')"/>
  <xsl:variable name="listed" select="$callbacks[@dv:listed]"/>
  <xsl:variable name="chosen-callbacks" select="$listed[@dv:at-chosen]"/>
  <xsl:variable name="version-field" select="$kind-record/field[@name = 'Version']"/>

  <!-- Stops the transform on parameters that name nothing (emit checks
       them first, so this is a second line). -->
  <xsl:template name="check-parameters">
    <xsl:if test="$driver-kind != 'full' and $driver-kind != 'display-only'">
      <xsl:message terminate="yes">driver-kind '<xsl:value-of select="$driver-kind"/>': expected full or display-only</xsl:message>
    </xsl:if>
    <xsl:if test="$versions and not($chosen)">
      <xsl:message terminate="yes">ddi-version '<xsl:value-of select="$ddi-version"/>' is not a DDI version of the spec</xsl:message>
    </xsl:if>
    <xsl:if test="$chosen and $kind-record and not($kind-record/@dv:at-chosen)">
      <xsl:message terminate="yes"><xsl:value-of select="$kind-record-name"/><xsl:text> does not exist at </xsl:text><xsl:value-of select="$chosen/@short"/>
                                   <xsl:text> (only </xsl:text><xsl:value-of select="$kind-record/@versions"/>
                                   <xsl:text>)</xsl:text></xsl:message>
    </xsl:if>
  </xsl:template>

  <!-- DxgkDdiBuildPagingBuffer -> BuildPagingBuffer -->
  <xsl:template name="short-name">
    <xsl:param name="member" select="."/>
    <xsl:choose>
      <xsl:when test="starts-with($member/@name, 'DxgkDdi')"><xsl:value-of select="substring-after($member/@name, 'DxgkDdi')"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="$member/@name"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The role typedef (DXGKDDI_BUILDPAGINGBUFFER) of a member. -->
  <xsl:template name="role">
    <xsl:param name="member" select="."/>
    <xsl:value-of select="key('fn', $member/@type)[1]/@pointer-to"/>
  </xsl:template>

  <!-- The IRQL a callback runs at: the reference page's req.irql when the
       spec has the docs, else the header's _IRQL_requires_(...) annotation;
       '' when neither says. -->
  <xsl:template name="irql">
    <xsl:param name="role"/>
    <xsl:variable name="page" select="key('page-with-irql', $role)[1]"/>
    <xsl:variable name="sal" select="key('fn', $role)[1]/@sal"/>
    <xsl:choose>
      <xsl:when test="$page"><xsl:value-of select="normalize-space($page/@irql)"/></xsl:when>
      <xsl:when test="contains($sal, '_IRQL_requires_(')">
        <xsl:value-of select="normalize-space(substring-before(substring-after($sal, '_IRQL_requires_('), ')'))"/>
      </xsl:when>
      <xsl:when test="contains($sal, '_IRQL_requires_max_(')">
        <xsl:text>&lt;= </xsl:text><xsl:value-of select="normalize-space(substring-before(substring-after($sal, '_IRQL_requires_max_('), ')'))"/>
      </xsl:when>
    </xsl:choose>
  </xsl:template>

  <!-- 'yes' when the callback runs only at PASSIVE_LEVEL: pageable, PAGED_CODE(). -->
  <xsl:template name="pageable">
    <xsl:param name="role"/>
    <xsl:variable name="irql">
      <xsl:call-template name="irql"><xsl:with-param name="role" select="$role"/></xsl:call-template>
    </xsl:variable>
    <!-- The pages spell it several ways (PASSIVE, <= PASSIVE_LEVEL,
         requires_max_(PASSIVE_LEVEL)); anything else, "See Remarks" included,
         stays resident, which is always safe. -->
    <xsl:variable name="k" select="translate($irql, ' ', '')"/>
    <xsl:if test="$k = 'PASSIVE_LEVEL' or $k = '&lt;=PASSIVE_LEVEL' or $k = 'PASSIVE'
                  or $k = 'requires_(PASSIVE_LEVEL)' or $k = 'requires_max_(PASSIVE_LEVEL)'">yes</xsl:if>
  </xsl:template>

  <!-- The record a parameter points to ('' when none): through a typedef's
       canonical type (struct _TAG *) or a spelled RECORD *. -->
  <xsl:template name="param-record">
    <xsl:param name="type"/>
    <xsl:variable name="bare" select="normalize-space(translate(concat(' ', $type, ' '), '*', ' '))"/>
    <xsl:variable name="name">
      <xsl:choose>
        <xsl:when test="starts-with($bare, 'const ')"><xsl:value-of select="substring-after($bare, 'const ')"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$bare"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="canonical" select="key('typedef', $name)/@canonical"/>
    <xsl:variable name="tag" select="normalize-space(substring-before(substring-after($canonical, 'struct '), '*'))"/>
    <xsl:choose>
      <xsl:when test="contains($type, '*') and key('record', $name)[not(@referenced)]">
        <xsl:value-of select="$name"/>
      </xsl:when>
      <xsl:when test="$tag != '' and contains($canonical, '*') and not(contains(substring-after($canonical, '*'), '*'))
                      and key('record-by-tag', $tag)[not(@referenced)]">
        <xsl:value-of select="key('record-by-tag', $tag)[1]/@name"/>
      </xsl:when>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
