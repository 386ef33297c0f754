// Decision 083: the money CSV for the organiser's accountant: rupees with two decimals (a sheet adds them up),
// every team's line (with its prize, TDS and PAN, decision 085), the totals after a blank row.
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../app/utils/csv.server';
import { moneyCsvRows } from '../../app/utils/money.server';

describe('money CSV', () => {
  it('writes each team, then the totals, in plain rupees', () => {
    const rows = moneyCsvRows({
      feePaise: 5000,
      expectedPaise: 10000,
      receivedPaise: 9000,
      verifiedPaise: 10000,
      refundedPaise: 4850,
      prizesPaidPaise: 500000,
      prizesTdsPaise: 150000,
      statements: 1,
      teams: [
        {
          registrationId: 7,
          teamName: 'Team Soul',
          place: 'withdrawn',
          paymentStatus: 'verified',
          upiReference: '334512345678',
          receivedPaise: 5000,
          payerName: 'Rahul Kumar',
          payerVpa: 'rahul.k@okaxis',
          refundPaise: 4850,
          refundUtr: '998877665544',
          prizeGrossPaise: null,
          prizeTdsPaise: null,
          prizeUtr: null,
          prizeUpiId: null,
          prizePan: null,
        },
        {
          registrationId: 8,
          teamName: '=HYPERLINK("x")',
          place: 'placed',
          paymentStatus: 'submitted',
          upiReference: '',
          receivedPaise: 4000,
          payerName: '',
          payerVpa: null,
          refundPaise: null,
          refundUtr: null,
          prizeGrossPaise: 500000,
          prizeTdsPaise: 150000,
          prizeUtr: '445566778899',
          prizeUpiId: 'captain@oksbi',
          prizePan: 'ABCDE1234F',
        },
      ],
    });
    expect(toCsv(rows).split('\r\n')).toEqual([
      'rid,teamName,place,paymentStatus,utr,receivedRupees,payerName,payerUpiId,refundRupees,refundUtr,prizeRupees,tdsRupees,prizeNetRupees,prizeUtr,prizeUpiId,pan',
      '7,Team Soul,withdrawn,verified,334512345678,50.00,Rahul Kumar,rahul.k@okaxis,48.50,998877665544,,,,,,',
      `8,"'=HYPERLINK(""x"")",placed,submitted,,40.00,,,,,5000.00,1500.00,3500.00,445566778899,captain@oksbi,ABCDE1234F`,
      '',
      'total,,,,,90.00,,,48.50,,5000.00,1500.00,3500.00,,,',
      'expectedRupees,100.00',
      'verifiedRupees,100.00',
      '',
    ]);
  });
});
