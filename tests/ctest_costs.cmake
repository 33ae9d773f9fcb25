# Included by CTest (TEST_INCLUDE_FILES of tests/ and tests/cli/, after the discovered gtest
# tests): the seconds each long test took in a cold CI run (877cf99: fresh clone, empty Mesa
# shader cache, `sh .ci/run` on two cores; docs/RELIABILITY.md). Some take less since (fewer
# lavapipe compiles); only their order matters here. A fresh build has no CTest cost data, so
# without these `ctest -j2` starts tests in the order they are declared and the longest could
# start last, leaving one core idle at the end; with them it starts the longest first. Names
# not defined in the including directory are ignored.
set_tests_properties(
  GpuTest.MinMaxAndMinMaxAreBitExactAtOddSizes PROPERTIES COST 300)
set_tests_properties(
  GpuTest.ScratchDataPastOneRangeIsBoundInRanges PROPERTIES COST 130)
set_tests_properties(
  GpuTest.CustomReductionMatchesItsCpuTwin PROPERTIES COST 100)
set_tests_properties(
  GpuTest.DepthSourceBuildsAConservativePyramid PROPERTIES COST 86)
set_tests_properties(
  GpuTest.HostileFloatDataFP32Path PROPERTIES COST 64)
set_tests_properties(
  GpuTest.StressTenThousandBackToBackCallsOnOneQueue
  CoreFormats/FormatTest.MatchesReferenceInEveryVariant/R16G16B16A16_SFLOAT
  CoreFormats/FormatTest.MatchesReferenceInEveryVariant/R32G32B32A32_SFLOAT
  GpuTest.LinearSamplerFetchMatchesTheReference PROPERTIES COST 60)
set_tests_properties(
  GpuTest.HundredsOfBackToBackCallsInOneCommandBuffer
  GpuTest.CustomReductionWeightsMatchTheFilterOnEveryKernel
  GpuTest.StressEightThreadsMixedSizesFreshContext PROPERTIES COST 42)
set_tests_properties(
  cli.Cli.CorpusThroughTheCli
  GpuTest.ArraysOf1_6_7And64Layers
  GpuTest.LargeOddSizeOnTheFp16Path
  GpuTest.HostileFloatDataFP16Path
  GpuTest.SrgbCheckerboardAveragesInLinearSpace PROPERTIES COST 34)
set_tests_properties(
  GpuTest.SummedLevelsMatchReferenceAtScreenAndThinSizes
  GpuTest.SummedLevelsOfEveryUnitFormat
  GpuTest.SummedLevelsHoldAtTheExtremes PROPERTIES COST 26)
set_tests_properties(
  AwkwardSizes/SizeTest.Rgba8MatchesReferenceInEveryVariant/1x7
  GpuTest.SolidColourStaysSolidAtEveryLevel
  GpuTest.SeveralCommandBuffersInFlightRecordedOnThreads PROPERTIES COST 26)
set_tests_properties(
  BeyondOneTile/CascadeTest.LongThinImagesInOneDispatch/8192x192
  GpuTest.PseudoRandomSizesFormatsAndVariants
  BeyondOneTile/CascadeTest.LongThinImagesInOneDispatch/4097x4
  GpuTest.AllZeroAndAllMaxFixedPointImages
  AwkwardSizes/SizeTest.Rgba8MatchesReferenceInEveryVariant/7x1
  CoreFormats/FormatTest.MatchesReferenceInEveryVariant/R8_UNORM
  cli.Cli.MaxChainIsBitExact PROPERTIES COST 20)
