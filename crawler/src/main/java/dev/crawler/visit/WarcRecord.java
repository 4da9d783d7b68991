package dev.crawler.visit;

import dev.crawler.record.WarcRecorder;

/** The exchange, as it went over the wire, into the WARC files: every response, whatever its status. */
final class WarcRecord implements VisitStage {
  private final WarcRecorder warc;

  WarcRecord(WarcRecorder warc) {
    this.warc = warc;
  }

  @Override
  public Step apply(Visit visit) {
    warc.record(visit.result());
    return Step.NEXT;
  }
}
